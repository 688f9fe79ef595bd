import { AwakenError, type RunRecord } from '@awaken/contract';
import type { InterruptResult } from '../../types';
import { notFound, requireRun } from './run-lookup';
import type { ServiceContext } from '../service/service-context';

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
  await context.runtime.cancelRun(runId, reason);
  return requireRun(context, runId);
}

/**
 * Latest wins: bumps the thread's epoch (queued work superseded, the active claim can no longer
 * ack, nack or extend), cancels the active run — through the run-control inbox, which wakes its
 * activation in whichever process runs it — and cancels the thread's waiting run.
 */
export async function interruptThread(
  context: ServiceContext,
  threadId: string,
  reason: string,
): Promise<InterruptResult> {
  const { threadRuns, mailbox, inbox } = context.stores;
  const thread = await threadRuns.getThread(threadId);
  if (!thread) throw notFound(`thread ${threadId}`);
  const interrupt = await mailbox.interrupt(threadId);
  const active = interrupt.activeDispatch;
  if (active) {
    const live = context.live.get(active.runId);
    if (live?.dispatch.dispatchId === active.dispatchId) live.cancel(reason);
    else {
      const id = `interrupt:${threadId}:${interrupt.newDispatchEpoch}`;
      await inbox.put(active.runId, { kind: 'cancel', id, reason, at: Date.now() });
    }
  }
  const open = thread.openRunId ? await threadRuns.getRun(thread.openRunId) : null;
  // also when the active claim is the waiting run's own activation, still settling after it
  // suspended: the cancel above came too late for it, and cancelRun waits for it to let go
  if (open?.status === 'waiting') await cancelRun(context, open.runId, reason);
  return {
    threadId,
    newDispatchEpoch: interrupt.newDispatchEpoch,
    supersededCount: interrupt.supersededCount,
    ...(active ? { cancelledRunId: active.runId } : {}),
  };
}
