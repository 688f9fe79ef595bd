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
import { ticketExpired } from './ticket-expiry';

/**
 * What the judge says of one decision: its receipt, and for an accepted one the decision addressed
 * to its call and bound to the ticket the call waits on, with that call's state.
 */
export type DecisionJudgement =
  | { receipt: DecisionReceipt & { status: 'accepted' }; decision: ToolCallDecision; call: ToolCallState }
  | {
      receipt: DecisionReceipt & { status: 'duplicate' | 'rejected' };
      decision?: undefined;
      call?: undefined;
    };

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
  if (!call && view.expired?.has(ticketId)) {
    return refuse(input, 'ticket_expired', `ticket ${ticketId} expired`);
  }
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
  // expiry: a call already resolved as expired, or one whose ticket's time ran out but that the run
  // has not resolved yet (nobody resumed it since), takes no answer — it would come too late
  if (call.status === 'expired' || ticketExpired(call.ticket, view.now)) {
    return refuse(named, 'ticket_expired', `the ticket of tool call ${call.callId} expired`);
  }
  if (call.status !== 'suspended') {
    return refuse(named, 'not_suspended', `tool call ${call.callId} is ${call.status}, not suspended`);
  }
  if (view.pending.some((queued) => queued.toolCallId === call.callId)) {
    return refuse(named, 'duplicate_conflict', `tool call ${call.callId} already has a decision`);
  }
  if (call.ticket?.suspension.requiresDistinctApprover) {
    const refused = fourEyesRefusal(view, input, call);
    if (refused) return refused;
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

/** Why a subject counts as an asker of the run, for the refusal message. */
function askerRole(view: DecisionView, subject: string): string | undefined {
  if (view.startedBy === subject) return 'started the run';
  if (view.askers?.has(subject)) return "asked for the run's actions";
  return undefined;
}

/**
 * A four-eyes ticket takes an answer only from an identified approver who asked for none of the
 * run's actions (its starter, who steered or resumed it, who edited a call's arguments), through a
 * link none of them issued.
 */
function fourEyesRefusal(view: DecisionView, input: ToolCallDecisionInput, call: ToolCallState) {
  const named = { ...input, toolCallId: call.callId };
  if (input.decidedBy === undefined) {
    return refuse(
      named,
      'self_approval_forbidden',
      `tool call ${call.callId} needs an approver other than those who asked for it, and this decision names no approver`,
    );
  }
  const decider = askerRole(view, input.decidedBy);
  if (decider !== undefined) {
    return refuse(
      named,
      'self_approval_forbidden',
      `tool call ${call.callId} needs an approver other than ${input.decidedBy}, who ${decider}`,
    );
  }
  const issuer = input.issuedBy === undefined ? undefined : askerRole(view, input.issuedBy);
  if (issuer !== undefined) {
    return refuse(
      named,
      'self_approval_forbidden',
      `tool call ${call.callId} needs an approver other than those who asked for it: this link was issued by ${input.issuedBy}, who ${issuer}`,
    );
  }
  return undefined;
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
 * - the call resolved as expired, its ticket's `expiresAt` is at or before the view's `now`, or the
 *   ticket is one the view lists as expired earlier in the run → `ticket_expired` (never applied,
 *   whatever arrives later);
 * - the call is not suspended (never asked yet, or already answered) → `not_suspended`; a call that
 *   already has an accepted decision not yet applied → `duplicate_conflict`;
 * - a ticket with `requiresDistinctApprover` answered by nobody identified, by the run's starter
 *   (`view.startedBy`) or by anyone else who asked for its actions (`view.askers`), or through a link
 *   one of them issued (`issuedBy`) → `self_approval_forbidden` (a cancel too: an asker cannot veto
 *   either);
 * - a `resume` result that fails the ticket's response schema → `invalid_payload`;
 * - otherwise `accepted`, addressed to the call and bound to its current ticket.
 * It never redirects a decision to a call other than the one it names, and it accepts an answer only
 * for a question the view shows waiting, whatever the run's status: the runtime stores a suspension
 * before it tells anyone of it, so a ticket a human could have seen is always in the stored run, and
 * a decision naming a ticket that does not exist yet is refused, never kept for later.
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
  if (!('callId' in call)) return call;
  const refused = refusal(view, decision, call);
  if (refused) return refused;
  const ticketId = call.ticket?.suspension.id;
  const bound = ticketId === undefined ? {} : { ticketId };
  return {
    receipt: { toolCallId: call.callId, ...bound, decisionId, status: 'accepted' },
    decision: { ...decision, toolCallId: call.callId, ...bound },
    call,
  };
}
