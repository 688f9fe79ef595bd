// Words for a run's end, one per meaning: the runtime *finishes* a run it executes (its own terminal
// checkpoint); the server *ends* a run no activation will finish — here, a run whose dispatch was
// dead-lettered; in thread-gate.ts, a run orphaned by an interrupt — through `runtime.failRun` /
// `runtime.cancelRun`. *Settle* is said only of a dispatch (settle-dispatch.ts).
import { AwakenError } from '@awaken/contract';
import { abortableDelay } from '../service/abortable-delay';
import type { ServiceContext } from '../service/service-context';

/** How many times a run still held (by a process that died, whose run lease has not lapsed yet) is tried again. */
const BUSY_RETRIES = 8;

/** The `code` of the `error` termination of a run the service gave up on (its dispatch was dead-lettered). */
export const DEAD_LETTERED = 'dead_lettered';

/**
 * Ends a run that will not be delivered again (its dispatch was dead-lettered) with the `error`
 * termination (`code: 'dead_lettered'`, the reason as its message), so its record says why instead
 * of staying `created` or `running` forever — and does not claim a person cancelled it. A run that
 * is done, gone or executing in another activation of this process is left alone. A run still held
 * by another process (typically the crashed one, whose run lease outlives its dispatch lease by a
 * moment) is tried again in the background every half lease, until it is free, done or the service
 * stops. Failures are reported, never thrown: the dispatch is already settled.
 */
export async function endDeadLetteredRun(
  context: ServiceContext,
  runId: string,
  reason: string,
  /** The dispatch settling the run's own activation, which does not count as another one. */
  settling?: string,
): Promise<void> {
  try {
    const record = await context.stores.threadRuns.getRun(runId);
    if (!record || record.status === 'done') return;
    const live = context.live.get(runId);
    if (live && live.dispatch.dispatchId !== settling) return;
    await context.runtime.failRun(runId, { message: reason, code: DEAD_LETTERED });
  } catch (error) {
    if (AwakenError.hasCode(error, 'run_busy')) void failWhenFree(context, runId, reason);
    else context.report(error, `finalizing run ${runId} (${reason})`);
  }
}

async function failWhenFree(context: ServiceContext, runId: string, reason: string): Promise<void> {
  for (let attempt = 1; attempt <= BUSY_RETRIES; attempt += 1) {
    await abortableDelay(Math.max(50, context.config.leaseMs / 2), context.stopping);
    if (context.stopping.aborted) return;
    try {
      const record = await context.stores.threadRuns.getRun(runId);
      if (!record || record.status === 'done' || context.live.has(runId)) return;
      await context.runtime.failRun(runId, { message: reason, code: DEAD_LETTERED });
      return;
    } catch (error) {
      if (AwakenError.hasCode(error, 'run_busy') && attempt < BUSY_RETRIES) continue;
      context.report(error, `finalizing run ${runId} (${reason})`);
      return;
    }
  }
}
