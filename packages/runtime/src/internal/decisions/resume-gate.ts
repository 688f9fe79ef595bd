import {
  type ToolCallDecision,
  type ToolCallDecisionInput,
  type ToolCallState,
  declinedCallMessage,
  decisionRecordOf,
  readApproval,
  sameJson,
  ticketExpired,
} from '@awaken/contract';
import { addAsker } from './run-askers';
import { validateDecision } from './accept-decisions';
import { cancelCall, expireCall } from '../tools/call-outcome';
import { commitCheckpoint } from '../checkpoint/commit-checkpoint';
import { readControls, removeControls } from '../inbox/run-controls';
import type { RunSession } from '../session/run-session';
import { moveCall } from '../tools/move-call';
import { applyIndeterminateAnswer } from '../tools/indeterminate-calls';

/**
 * Applies one accepted decision to its suspended call and appends its audit record (stored by the
 * checkpoint that records the decision as applied, announced by `decision_recorded`): `cancel` cancels it (the model reads the
 * reason); `resume` moves it to `resuming`, so the next tool round replays it. The contract's
 * approval payload holds for every plugin's replayed ticket: a refusal never runs the call, and
 * edited arguments replace the model's for this and every later execution, and make whoever
 * approved them an asker of the run (they asked for the edited call).
 */
async function apply(session: RunSession, state: ToolCallState, decision: ToolCallDecision): Promise<void> {
  const { toolCallId, ticketId: _ticketId, ...resume } = decision;
  state.resume = resume;
  session.decisions.applied.add(decision.decisionId);
  // the audit record shows the call as the human saw it, so it is taken before the decision changes it
  const record = decisionRecordOf(state, decision, session.now());
  session.decisions.records.push(record);
  session.events.post({ type: 'tool_call_resumed', toolCallId, decision });
  session.events.post({ type: 'decision_recorded', record });
  // a question asked inside a child run: the answer is the child's, whatever it says — the call is
  // replayed with it and forwards it (a denial must reach the child, never cancel this call)
  const nested = state.ticket?.suspension.nested;
  if (nested) {
    // edited arguments of the inner call: its approver asked for the edited call here too, so this
    // run's judge refuses their answer to a four-eyes question the edit leads to (as the child's does)
    const edited = decision.action === 'resume' ? readApproval(decision.result)?.editedArguments : undefined;
    if (edited !== undefined && !sameJson(edited, nested.arguments)) addAsker(session, decision.decidedBy);
    moveCall(session, state, 'resuming');
    return;
  }
  if (decision.action === 'cancel') {
    await cancelCall(session, state, decision.reason ?? 'cancelled by decision');
    return;
  }
  // an `indeterminate` ticket answered `result` or `fail` resolves here, never running the tool
  if (await applyIndeterminateAnswer(session, state, decision)) return;
  const approval =
    state.ticket?.resumeMode === 'replay_tool_call' ? readApproval(decision.result) : undefined;
  if (approval?.approved === false) {
    await cancelCall(session, state, declinedCallMessage(state.toolName, approval.reason ?? decision.reason));
    return;
  }
  if (approval?.editedArguments !== undefined) {
    // arguments of one's own ask for the edited call: its approver becomes an asker of the run
    const shown = state.ticket?.pending.arguments ?? state.editedArguments ?? state.arguments;
    if (!sameJson(approval.editedArguments, shown)) addAsker(session, decision.decidedBy);
    state.editedArguments = approval.editedArguments;
  }
  moveCall(session, state, 'resuming');
}

/**
 * Resolves every call still waiting on a ticket whose `expiresAt` has passed as `expired` (after the
 * decisions accepted in time were applied). With `onApprovalExpired: 'end_run'` the batch records
 * it, and the tool round ends the run `stopped { code: 'approval_expired' }`.
 */
async function expireTickets(session: RunSession): Promise<ToolCallState[]> {
  const expired: ToolCallState[] = [];
  for (const state of session.batch.calls) {
    if (state.status !== 'suspended' || !ticketExpired(state.ticket, session.now())) continue;
    // remembered past this step, so a late answer is still told it came too late
    const ids = session.run.bookkeeping.expiredTicketIds ?? [];
    session.run.bookkeeping.expiredTicketIds = [...ids, state.ticket!.suspension.id].slice(-100);
    expired.push(state);
    if (state.ticket?.suspension.nested) {
      // the child's ticket expires at the same instant: replaying the call lets the child resolve
      // its own call as expired and go on by its own rules, so no child is left waiting
      state.resume = undefined;
      moveCall(session, state, 'resuming');
      continue;
    }
    await expireCall(session, state);
    if (session.agent.onApprovalExpired === 'end_run')
      session.batch.expired ??= `the approval of "${state.toolName}" (${state.callId}) expired`;
  }
  return expired;
}

/**
 * The RESUME_TOOL_CALL gate: takes the queued decisions and those in the run-control inbox (which
 * may name their call by tool call id or ticket id, like the ones given to `decide`), validates each
 * against the run as it is now (bound to its ticket) and applies it. Decisions that no longer match
 * are dropped with an `error` event, never redirected. Inbox entries are only peeked: the ones
 * applied are recorded by a checkpoint before exactly the entries read are removed, so a process that
 * dies in between loses nothing, and a decision that arrived after the peek stays for the next gate.
 * A cancel found in the inbox aborts the run. Calls whose ticket expired meanwhile then resolve as
 * `expired`. Returns the calls that changed.
 */
export async function resumeGate(session: RunSession): Promise<ToolCallState[]> {
  const candidates: ToolCallDecisionInput[] = session.decisions.take();
  const controls = await readControls(session, { atGate: true });
  const read = controls.flatMap((control) => (control.kind === 'decision' ? [control] : []));
  candidates.push(...read.map((control) => control.decision));
  const changed: ToolCallState[] = [];
  for (const candidate of candidates) {
    if (session.decisions.applied.has(candidate.decisionId)) continue;
    // accepted before (by `decide` or into the inbox): honoured even if its ticket expired since
    const { receipt, decision, call: state } = validateDecision(session, candidate, { clock: false });
    if (!decision) {
      const message = receipt.status === 'rejected' ? receipt.message : 'duplicate decision';
      session.events.post({ type: 'error', code: 'decision_rejected', message });
      continue;
    }
    await apply(session, state, decision);
    changed.push(state);
  }
  changed.push(...(await expireTickets(session)));
  if (changed.length > 0 && read.length > 0) await commitCheckpoint(session, 'tool_results_committed');
  await removeControls(
    session,
    read.map((control) => control.id),
  );
  return changed;
}
