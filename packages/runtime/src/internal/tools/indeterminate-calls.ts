import {
  INDETERMINATE_ACTION,
  type ToolCallDecision,
  type ToolCallState,
  indeterminateSuspension,
  readIndeterminateAnswer,
  toolFailure,
  toolSuccess,
} from '@awaken/contract';
import type { RunSession } from '../session/run-session';
import { applyResult } from './call-outcome';
import { moveCall } from './move-call';

/**
 * True when the stored call was running in an activation that is gone (this one just loaded it) and
 * no result was recorded, for a tool that declared `idempotent: false`: nobody knows whether its side
 * effect happened.
 */
function inDoubt(session: RunSession, state: ToolCallState): boolean {
  const tool = session.agent.tools.get(state.toolName);
  return (
    tool !== undefined &&
    !tool.idempotent &&
    state.status === 'running' &&
    state.executions > 0 &&
    state.result === undefined
  );
}

/**
 * Run when an activation opens the batch it loaded from the store: every non-idempotent call found
 * `running` with no result (its process died inside the tool body) suspends with an `indeterminate`
 * ticket instead of running again. Tools safe to repeat are left alone (they simply run again).
 */
export async function suspendCallsInDoubt(session: RunSession): Promise<void> {
  for (const state of session.batch.calls) {
    if (!inDoubt(session, state)) continue;
    await applyResult(session, state, {
      status: 'pending',
      suspension: indeterminateSuspension(state),
      resumeMode: 'replay_tool_call',
    });
  }
}

/**
 * Applies a `resume` answer to an `indeterminate` ticket: `result` → the call succeeds with that value
 * and `fail` → it fails with the reason, both without running the tool; `retry` (returns false) →
 * the caller replays the call as for any resume. Returns true when the call is resolved here.
 */
export async function applyIndeterminateAnswer(
  session: RunSession,
  state: ToolCallState,
  decision: ToolCallDecision,
): Promise<boolean> {
  if (state.ticket?.suspension.action !== INDETERMINATE_ACTION || decision.action !== 'resume') return false;
  const answer = readIndeterminateAnswer(decision.result);
  if (answer === undefined || answer.outcome === 'retry') return false;
  moveCall(session, state, 'resuming');
  if (answer.outcome === 'result') {
    await applyResult(session, state, toolSuccess(answer.result ?? null));
  } else {
    const reason = answer.reason ?? decision.reason ?? 'a human said it did not complete';
    await applyResult(session, state, toolFailure(`"${state.toolName}" failed: ${reason}`));
  }
  return true;
}
