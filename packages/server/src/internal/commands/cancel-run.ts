// One of the run commands (see create-run-commands.ts). A cancel ends the run `cancelled` — the end a
// caller asked for, unlike the `error` end of a dead-lettered run — through whichever activation holds it.
import { AwakenError, type RunRecord } from '@awaken/contract';
import type { ServiceContext } from '../service/service-context';
import { requireRun } from './run-lookup';

/**
 * Cancels a run wherever it is: a queued start is withdrawn; a live activation here is aborted
 * through its signal; one live in another process receives the cancel through the run-control
 * inbox and ends the run itself; a run nobody executes is cancelled by a cold activation. Resolves
 * with the stored run once it is done; idempotent.
 */
export async function cancelRun(context: ServiceContext, runId: string, reason: string): Promise<RunRecord> {
  const record = await requireRun(context, runId);
  if (record.status === 'done') return record;
  const live = context.live.get(runId);
  if (live) {
    live.cancel(reason);
    await live.done;
    const after = await requireRun(context, runId);
    if (after.status === 'done') return after;
  }
  const { mailbox } = context.stores;
  const queued = await mailbox.listDispatches(record.threadId, { status: ['queued'], limit: 1000 });
  for (const dispatch of queued.items.filter((item) => item.runId === runId)) {
    await mailbox.cancel(dispatch.dispatchId).catch((error: unknown) => {
      // claimed meanwhile: the cancel below reaches its activation through the inbox
      if (!AwakenError.hasCode(error, 'conflict')) throw error;
    });
  }
  if (record.status === 'waiting') {
    const cancelled = await cancelColdHere(context, runId, reason);
    if (cancelled) return cancelled;
  }
  await context.runtime.cancelRun(runId, reason);
  return requireRun(context, runId);
}

/**
 * Cancels a run nobody executes (a waiting one) by a cold activation of this process, as the
 * runtime's own `cancelRun` would first try, but with its events published like any activation's:
 * the observers (`observeEvents`: the wait meter's `cancelled` waits, the shadow verdicts) and live
 * readers see them. Null when the run is held elsewhere (`run_busy`: the runtime's `cancelRun` then
 * reaches its owner) or was not ended by it.
 */
async function cancelColdHere(
  context: ServiceContext,
  runId: string,
  reason: string,
): Promise<RunRecord | null> {
  try {
    const handle = context.runtime.resumeRun(runId, { signal: AbortSignal.abort(reason) });
    context.liveEvents.publish(runId, handle.events);
    await handle.result;
  } catch (error) {
    if (AwakenError.hasCode(error, 'run_busy')) return null;
    throw error;
  }
  const after = await requireRun(context, runId);
  return after.status === 'done' ? after : null;
}
