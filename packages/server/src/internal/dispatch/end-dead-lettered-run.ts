// Words for a run's end, one per meaning: the runtime *finishes* a run it executes (its own terminal
// checkpoint); the server *ends* a run no activation will finish — here, a run whose dispatch was
// dead-lettered; in thread-gate.ts, a run orphaned by an interrupt — through `runtime.failRun` /
// `runtime.cancelRun`. *Settle* is said only of a dispatch (settle-dispatch.ts).
import { AwakenError } from '@awaken/contract';
import { isTransient } from './classify-outcome';
import { abortableDelay } from '../service/abortable-delay';
import type { ServiceContext } from '../service/service-context';

/** The longest wait between two tries of ending a run after a store failure. */
const MAX_STORE_BACKOFF_MS = 5_000;

/** The `code` of the `error` termination of a run the service gave up on (its dispatch was dead-lettered). */
export const DEAD_LETTERED = 'dead_lettered';

/**
 * Ends a run that will not be delivered again (its dispatch was dead-lettered) with the `error`
 * termination (`code: 'dead_lettered'`, the reason as its message), so its record says why instead
 * of staying `created` or `running` forever — and does not claim a person cancelled it. A run that
 * is done, gone or executing in another activation of this process is left alone. When ending it
 * fails for a reason that may pass — the run is still held by another process (typically the crashed
 * one, whose run lease outlives its dispatch lease by a moment: tried again every half lease), or a
 * retryable store failure (an outage: tried again after 100 ms, doubling up to 5 s) — it is tried
 * again in the background until it succeeds, the run is done or the service stops. Failures are
 * reported (the first of a series once), never thrown: the dispatch is already settled.
 */
export async function endDeadLetteredRun(
  context: ServiceContext,
  runId: string,
  reason: string,
  /** The dispatch settling the run's own activation, which does not count as another one. */
  settling?: string,
): Promise<void> {
  const outcome = await tryToEnd(context, runId, reason, settling);
  if (outcome === 'ended') return;
  // a run still held is expected after a crash; anything else is worth a report
  if (!AwakenError.hasCode(outcome, 'run_busy'))
    context.report(outcome, `finalizing run ${runId} (${reason})`);
  if (isTransient(outcome)) void endWhenPossible(context, runId, reason, outcome);
}

/** One try: `ended` when the run is done (or needs nothing), else the error. */
async function tryToEnd(
  context: ServiceContext,
  runId: string,
  reason: string,
  settling?: string,
): Promise<'ended' | unknown> {
  try {
    const record = await context.stores.threadRuns.getRun(runId);
    if (!record || record.status === 'done') return 'ended';
    const live = context.live.get(runId);
    if (live && live.dispatch.dispatchId !== settling) return 'ended';
    await context.runtime.failRun(runId, { message: reason, code: DEAD_LETTERED });
    return 'ended';
  } catch (error) {
    return error;
  }
}

function delayAfter(context: ServiceContext, error: unknown, attempt: number): number {
  if (AwakenError.hasCode(error, 'run_busy')) return Math.max(50, context.config.leaseMs / 2);
  return Math.min(100 * 2 ** Math.min(attempt - 1, 10), MAX_STORE_BACKOFF_MS);
}

async function endWhenPossible(
  context: ServiceContext,
  runId: string,
  reason: string,
  first: unknown,
): Promise<void> {
  let error = first;
  for (let attempt = 1; ; attempt += 1) {
    await abortableDelay(delayAfter(context, error, attempt), context.stopping);
    if (context.stopping.aborted) return;
    // a run executing again in this process (a new dispatch of it) is that activation's to end
    if (context.live.has(runId)) return;
    const outcome = await tryToEnd(context, runId, reason);
    if (outcome === 'ended') return;
    if (!isTransient(outcome)) {
      context.report(outcome, `finalizing run ${runId} (${reason})`);
      return;
    }
    error = outcome;
  }
}
