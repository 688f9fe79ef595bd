import { AwakenError, type ToolCallState, isTerminalToolCallStatus } from '@awaken/contract';
import type { RunSession } from '../session/run-session';
import { childIdsOf } from '../child-ids/child-ids';

/** The child run a suspended call waits on through its nested ticket, when it is this run's child. */
function waitingChildOf(session: RunSession, call: ToolCallState): string | undefined {
  const nested = call.ticket?.suspension.nested;
  if (call.status !== 'suspended' || nested === undefined) return undefined;
  // a nested ticket of another kind (a remote A2A task) names no run of these stores
  const own = childIdsOf({ runId: session.runId, step: call.step, callId: call.callId }).runId;
  return nested.runId === own ? nested.runId : undefined;
}

/**
 * Cancels the child runs this run's open calls wait on (their nested tickets name them), before the
 * run ends without them: no child is left waiting for an answer its parent will never forward. A
 * child running inline is cancelled through the parent's signal instead. Each is cancelled first, so
 * a parent whose own terminal checkpoint then fails leaves no child behind either; a child that cannot
 * be cancelled now is reported with an `error` event (`child_cancel_failed`), and the parent still ends.
 */
export async function cancelChildren(session: RunSession, reason: string): Promise<void> {
  const children = session.services.children;
  if (!children) return;
  for (const call of session.batch.calls) {
    if (isTerminalToolCallStatus(call.status)) continue;
    const childRunId = waitingChildOf(session, call);
    if (childRunId === undefined) continue;
    try {
      await children.cancel(childRunId, reason);
    } catch (error) {
      if (AwakenError.hasCode(error, 'not_found')) continue;
      const message = error instanceof Error ? error.message : String(error);
      session.events.post({
        type: 'error',
        code: 'child_cancel_failed',
        message: `child run ${childRunId} of call ${call.callId} was not cancelled: ${message}`,
      });
    }
  }
}
