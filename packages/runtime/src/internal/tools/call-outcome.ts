import {
  FORK_REPEAT_ACTION,
  INDETERMINATE_ACTION,
  type SuspendTicket,
  type ToolCallState,
  type ToolResult,
  expiredCallMessage,
  findJsonIssue,
  formatJsonIssue,
  ticketExpiresAt,
  toolFailure,
} from '@awaken/contract';
import { commitCheckpoint } from '../checkpoint/commit-checkpoint';
import { runHooks } from '../plugins/plugin-host';
import type { RunSession } from '../session/run-session';
import { moveCall } from './move-call';
import { callFields } from './prepare-arguments';
import { committedContent, expiredContent, toolContent } from '../checkpoint/tool-content';

/** Emits the events and runs AfterToolExecute for a call that just reached a result. */
export async function settleCall(
  session: RunSession,
  state: ToolCallState,
  result: ToolResult,
): Promise<void> {
  if (state.status === 'suspended' && state.ticket) {
    session.events.post({
      type: 'tool_call_suspended',
      toolCallId: state.callId,
      toolName: state.toolName,
      ticket: state.ticket,
    });
  } else if (
    state.status === 'succeeded' ||
    state.status === 'failed' ||
    state.status === 'cancelled' ||
    state.status === 'expired'
  ) {
    session.events.post({
      type: 'tool_call_done',
      toolCallId: state.callId,
      toolName: state.toolName,
      status: state.status,
      result,
      content:
        state.status === 'expired'
          ? expiredContent(result)
          : committedContent(
              state,
              toolContent(result, state.status === 'cancelled' ? cancelReason(state, result) : undefined),
            ),
    });
  }
  await runHooks(session, 'afterToolExecute', {
    ...callFields(state),
    result,
    status: state.status,
  });
}

function cancelReason(state: ToolCallState, result: ToolResult): string {
  if (state.resume?.action === 'cancel') return state.resume.reason ?? 'cancelled by decision';
  return result.status === 'error' ? result.message : 'cancelled';
}

/**
 * When a ticket raised now for this call expires: the gate's (a permission rule's) timeout, else the
 * tool's, else the agent's default. An `indeterminate` ticket never expires by a tool's or agent's
 * timeout: whether a side effect happened is not a question that may go unanswered by default.
 */
function expiryOf(
  session: RunSession,
  state: ToolCallState,
  result: Extract<ToolResult, { status: 'pending' }>,
  gateTimeout: number | undefined,
): number | undefined {
  // a tool mirroring a child's question gives the child ticket's own expiry: both expire together
  if (result.suspension.nested) return result.expiresAt;
  if (result.expiresAt !== undefined) return result.expiresAt;
  // nor does a fork's question before repeating such a call
  if (result.suspension.action === INDETERMINATE_ACTION || result.suspension.action === FORK_REPEAT_ACTION)
    return undefined;
  const tool = session.agent.tools.get(state.toolName);
  return ticketExpiresAt(session.now(), gateTimeout, tool?.approvalTimeout, session.agent.approvalTimeout);
}

/**
 * Applies a result: success/warning → succeeded, error → failed, pending → suspended with a ticket
 * (expiring per `options.approvalTimeout`, the tool's or the agent's timeout). A suspension JSON
 * cannot hold faithfully (NaN, a BigInt, a cycle, …) fails the call naming the member.
 */
export async function applyResult(
  session: RunSession,
  state: ToolCallState,
  result: ToolResult,
  options: { approvalTimeout?: number } = {},
): Promise<void> {
  if (result.status === 'pending') {
    // the tool's (or gate's) own value, stored with the run: checked here, as a tool output is, since
    // the stores' trusted path checks nothing after the runtime
    const issue = findJsonIssue(result.suspension);
    if (issue) {
      const failure = toolFailure(`tool suspension is not JSON: ${formatJsonIssue(issue)}`);
      return applyResult(session, state, failure, options);
    }
    const expiresAt = expiryOf(session, state, result, options.approvalTimeout);
    const ticket: SuspendTicket = {
      suspension: result.suspension,
      // the call as it would run: arguments a human edited when approving an earlier ticket, else
      // the model's — what every door shows the next approver
      pending: {
        id: state.callId,
        name: state.toolName,
        arguments: state.editedArguments !== undefined ? state.editedArguments : state.arguments,
      },
      resumeMode: result.resumeMode ?? 'replay_tool_call',
      ...(expiresAt === undefined ? {} : { expiresAt }),
    };
    state.ticket = ticket;
    state.result = undefined;
    moveCall(session, state, 'suspended');
    // the question is durable before anyone is told of it: a decision for it, sent to any process
    // the moment the event arrives, finds the ticket in the stored run (never one that is not there)
    await commitCheckpoint(session, 'tool_results_committed', { midRound: true });
  } else {
    state.result = result;
    moveCall(session, state, result.status === 'error' ? 'failed' : 'succeeded');
  }
  await settleCall(session, state, result);
}

/**
 * Resolves a suspended call whose ticket expired: `expired`, never run; the model reads
 * {@link expiredCallMessage} (a failure result, distinct from a denial by the call's status, the
 * tool message's `outcome` and the `tool_call_done` event).
 */
export async function expireCall(session: RunSession, state: ToolCallState): Promise<void> {
  const result = toolFailure(expiredCallMessage(state.toolName));
  state.result = result;
  moveCall(session, state, 'expired');
  await settleCall(session, state, result);
}

/** Marks a call cancelled (through `running` for a call that never started) with `reason`. */
export async function cancelCall(session: RunSession, state: ToolCallState, reason: string): Promise<void> {
  if (state.status === 'new') moveCall(session, state, 'running');
  const result = toolFailure(reason);
  state.result = result;
  moveCall(session, state, 'cancelled');
  await settleCall(session, state, result);
}
