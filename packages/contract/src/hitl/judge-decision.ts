import { formatZodIssues } from '../errors/validation';
import { validateJsonSchema } from '../json-schema/validate-json-schema';
import type { ToolCallState } from '../tool/tool-call-state';
import {
  type DecisionReceipt,
  type ToolCallDecision,
  type ToolCallDecisionInput,
  toolCallDecisionInputSchema,
} from './decision';
import { duplicateReceipt, rejectedReceipt } from './decision-receipts';
import type { DecisionView } from './decision-view';

/**
 * What the judge says of one decision: its receipt, and for an accepted one the decision addressed
 * to its call and bound to the ticket the call waits on, with that call's state. `deferred` (only
 * on a view that is `behind`): the decision may be queued for the run's owner, which judges it again
 * on the live run; it names its call as the caller did, completed where the view knows it.
 */
export type DecisionJudgement =
  | {
      receipt: DecisionReceipt & { status: 'accepted' };
      decision: ToolCallDecision;
      call: ToolCallState;
      deferred?: undefined;
    }
  | {
      receipt: DecisionReceipt & { status: 'duplicate' | 'rejected' };
      decision?: undefined;
      call?: undefined;
      deferred?: undefined;
    }
  | { receipt?: undefined; decision?: undefined; call?: undefined; deferred: ToolCallDecisionInput };

type Refusal = { receipt: DecisionReceipt & { status: 'duplicate' | 'rejected' } };

const refuse = (...args: Parameters<typeof rejectedReceipt>) =>
  ({ receipt: rejectedReceipt(...args) }) as Refusal;

/** The call waiting (or that waited) on a ticket; a suspended one first. */
function callWithTicket(calls: readonly ToolCallState[], ticketId: string): ToolCallState | undefined {
  const holders = calls.filter((call) => call.ticket?.suspension.id === ticketId);
  return holders.find((call) => call.status === 'suspended') ?? holders[0];
}

/**
 * The one call a decision names. `ticketId` names a suspension (what protocols expose as an
 * approval or interrupt id); `toolCallId` names a tool call and nothing else — a ticket id given as
 * `toolCallId` is refused with a hint, never looked up as a ticket, so a call id and a ticket id can
 * never be confused. Naming both: they must belong together.
 */
function resolveCall(
  view: DecisionView,
  calls: readonly ToolCallState[],
  input: ToolCallDecisionInput,
): ToolCallState | Refusal {
  const { toolCallId, ticketId } = input;
  if (ticketId === undefined) {
    const call = calls.find((candidate) => candidate.callId === toolCallId);
    if (call) return call;
    const hint =
      toolCallId !== undefined && callWithTicket(calls, toolCallId)
        ? ` (${toolCallId} is a ticket id: send it as ticketId)`
        : '';
    return refuse(input, 'unknown_tool_call', `run ${view.runId} has no tool call ${toolCallId}${hint}`);
  }
  const call = callWithTicket(calls, ticketId);
  if (!call) {
    return refuse(input, 'unknown_tool_call', `run ${view.runId} has no tool call with ticket ${ticketId}`);
  }
  if (toolCallId !== undefined && toolCallId !== call.callId) {
    return refuse(
      input,
      'invalid_payload',
      `ticket ${ticketId} belongs to tool call ${call.callId}, not ${toolCallId}`,
    );
  }
  return call;
}

/** Why the call cannot take the decision now, if it cannot. */
function refusal(view: DecisionView, input: ToolCallDecisionInput, call: ToolCallState): Refusal | undefined {
  const named = { ...input, toolCallId: call.callId };
  if (call.resume?.decisionId === input.decisionId) return { receipt: duplicate(input, call.callId) };
  if (call.status !== 'suspended') {
    return refuse(named, 'not_suspended', `tool call ${call.callId} is ${call.status}, not suspended`);
  }
  if (view.pending.some((queued) => queued.toolCallId === call.callId)) {
    return refuse(named, 'duplicate_conflict', `tool call ${call.callId} already has a decision`);
  }
  const schema = call.ticket?.suspension.responseSchema;
  if (input.action !== 'resume' || !schema) return undefined;
  const issues = validateJsonSchema(schema, input.result);
  if (issues.length === 0) return undefined;
  const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return refuse(
    named,
    'invalid_payload',
    `decision for ${call.callId} does not match the response schema: ${detail}`,
  );
}

/**
 * On a stored copy that is behind, a refusal is out of date only where the copy lacks the question:
 * the call or ticket is unknown to it, or the call has not been judged yet (`new`, `running`) and
 * may suspend after the copy was written. A call that left `suspended` (answered, resuming, done)
 * never waits on the same ticket again, so a refusal about it stands.
 */
function mayStillBeAsked(call: ToolCallState | Refusal): boolean {
  if (!('callId' in call))
    return call.receipt.status === 'rejected' && call.receipt.reason === 'unknown_tool_call';
  return call.status === 'new' || call.status === 'running';
}

function duplicate(input: unknown, toolCallId?: string) {
  return duplicateReceipt(input, toolCallId) as DecisionReceipt & { status: 'duplicate' };
}

/**
 * May this answer be applied to this run? The one judge every path asks — the runtime's live gate,
 * a decision delivered to a run held elsewhere, the server's routes and every protocol adapter:
 * - malformed → rejected `invalid_payload`;
 * - a `decisionId` the run applied or holds accepted → `duplicate` (applied once, whatever the run's
 *   status now);
 * - the run is `done` or closing → rejected `run_finished`;
 * - no call with that tool call id, or no call with that ticket → `unknown_tool_call`; a ticket of
 *   another call → `invalid_payload`;
 * - the call is not suspended (never asked yet, or already answered) → `not_suspended`; a call that
 *   already has an accepted decision not yet applied → `duplicate_conflict`;
 * - a `resume` result that fails the ticket's response schema → `invalid_payload`;
 * - otherwise `accepted`, addressed to the call and bound to its current ticket.
 * It never redirects a decision to a call other than the one it names. On a stored copy of a run
 * that executes elsewhere (`view.behind`), a refusal about the call (unknown, not suspended, ...) may
 * be out of date: such a decision is `deferred` to the owner's gate instead.
 */
export function judgeDecision(view: DecisionView, input: unknown): DecisionJudgement {
  const shape = toolCallDecisionInputSchema.safeParse(input);
  if (!shape.success) {
    return refuse(input, 'invalid_payload', `malformed decision: ${formatZodIssues(shape.error.issues)}`);
  }
  const decision = shape.data;
  const calls = [...view.calls];
  const { decisionId } = decision;
  if (view.applied.has(decisionId) || view.pending.some((queued) => queued.decisionId === decisionId)) {
    const known =
      decision.toolCallId ??
      (decision.ticketId === undefined ? undefined : callWithTicket(calls, decision.ticketId)?.callId);
    return { receipt: duplicate(decision, known) };
  }
  if (view.status === 'done') return refuse(decision, 'run_finished', `run ${view.runId} is finished`);
  if (view.closing !== undefined) {
    return refuse(decision, 'run_finished', `run ${view.runId} is ${view.closing}`);
  }
  const call = resolveCall(view, calls, decision);
  const refused = 'callId' in call ? refusal(view, decision, call) : call;
  if (refused && view.behind && mayStillBeAsked(call)) {
    const known = 'callId' in call && decision.toolCallId === undefined ? { toolCallId: call.callId } : {};
    return { deferred: { ...decision, ...known } };
  }
  if (refused) return refused;
  if (!('callId' in call)) throw new Error('unreachable: an unresolved call is refused');
  const ticketId = call.ticket?.suspension.id;
  const bound = ticketId === undefined ? {} : { ticketId };
  return {
    receipt: { toolCallId: call.callId, ...bound, decisionId, status: 'accepted' },
    decision: { ...decision, toolCallId: call.callId, ...bound },
    call,
  };
}
