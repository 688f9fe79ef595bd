// One of the run commands (see create-run-commands.ts): "interrupt" is latest-wins on a thread.
import type { InterruptResult } from '../../types';
import type { ServiceContext } from '../service/service-context';
import { cancelRun } from './cancel-run';
import { notFound } from './run-lookup';

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
