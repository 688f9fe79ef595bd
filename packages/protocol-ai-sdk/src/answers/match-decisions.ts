import {
  type DecisionRejectionReason,
  type DecisionView,
  type RunContext,
  type RunWaitingTicket,
  type ToolCallDecisionInput,
  answer,
  approve,
  assertNever,
  deny,
  findJsonIssue,
  formatJsonIssue,
  judgeDecision,
  waitingTicketOf,
} from '@awaken/contract';
import { isApprovalTicket } from './open-tickets';
import { fingerprint } from './fingerprint';
import { jsonEqual } from './json-equal';
import type { ProposedDecision } from '../request/read-chat-turn';

/**
 * Why a proposed decision was not taken:
 * - `not_waiting`: no call of the run waits on it (never asked, already answered, or a stale part);
 * - `wrong_call`: the approval id belongs to another call, or the tool name differs;
 * - `wrong_kind`: an approval for a call that waits for an output, or an output for an approval;
 * - `input_changed`: the part's input is not the stored arguments: the human saw something else;
 * - `invalid_value`: the answer cannot be stored as JSON (nested too deep, a lone surrogate);
 * - `already_decided`: the call already has another answer, accepted and not yet applied;
 * - `self_approval_forbidden`: the ticket needs an approver other than the run's starter (four-eyes);
 * - `expired`: the ticket's `expiresAt` passed (the judge's `ticket_expired`): too late, never applied;
 * - `duplicate`: a second proposal for a call in the same request, giving the same answer;
 * - `conflicting`: two proposals for one call giving different answers: neither is taken, and the
 *   request should be refused as a whole ({@link MatchedDecisions.conflicts}).
 */
export type ProposalRejectionReason =
  | 'not_waiting'
  | 'wrong_call'
  | 'wrong_kind'
  | 'input_changed'
  | 'invalid_value'
  | 'already_decided'
  | 'self_approval_forbidden'
  | 'expired'
  | 'duplicate'
  | 'conflicting';

export interface RejectedProposal {
  proposal: ProposedDecision;
  reason: ProposalRejectionReason;
  message: string;
}

export interface MatchDecisionsOptions {
  /** The proposals of the request ({@link readChatTurn}). */
  proposals: readonly ProposedDecision[];
  /**
   * The run as the server's own store holds it (`decisionViewOf(record)`): the tickets it durably
   * waits on, and what the decision judge checks every answer against.
   */
  run: DecisionView;
  /** Who decided (identity, tenant, request metadata), stored with each decision. */
  context?: RunContext;
  /** The authenticated subject answering (the audit trail's `decidedBy`; four-eyes tickets need it). */
  decidedBy?: string;
}

export interface MatchedDecisions {
  /** Complete decisions, each addressed by its ticket; arguments and tool names come from the store. */
  decisions: ToolCallDecisionInput[];
  rejected: RejectedProposal[];
  /**
   * The tool call ids answered twice, differently, in this request (none of their answers is in
   * `decisions`). A request with any is self-contradictory: refuse it whole.
   */
  conflicts: string[];
}

/**
 * The decision id of an answer: the ticket plus a digest of the answer. A re-sent request gives the
 * same id (a duplicate, applied once); a different answer for the same ticket gives another id, so
 * the store refuses it as a second decision instead of passing it off as the first one's duplicate.
 */
function decisionIdOf(ticket: RunWaitingTicket, decision: ToolCallDecisionInput): string {
  const answer = {
    action: decision.action,
    result: decision.result ?? null,
    reason: decision.reason ?? null,
  };
  return `ai-sdk:${ticket.ticketId}:${fingerprint(answer)}`;
}

function ticketFor(
  proposal: ProposedDecision,
  tickets: readonly RunWaitingTicket[],
): RunWaitingTicket | Omit<RejectedProposal, 'proposal'> {
  const ticket =
    proposal.kind === 'approval'
      ? tickets.find((candidate) => candidate.ticketId === proposal.approvalId)
      : tickets.find((candidate) => candidate.toolCallId === proposal.toolCallId);
  const what =
    proposal.kind === 'approval' ? `approval "${proposal.approvalId}"` : `call "${proposal.toolCallId}"`;
  if (!ticket) return { reason: 'not_waiting', message: `${what}: no call of the run waits for it` };
  if (ticket.toolCallId !== proposal.toolCallId)
    return { reason: 'wrong_call', message: `${what} belongs to call "${ticket.toolCallId}"` };
  if (proposal.toolName !== undefined && proposal.toolName !== ticket.toolName)
    return {
      reason: 'wrong_call',
      message: `${what} is a call to "${ticket.toolName}", not "${proposal.toolName}"`,
    };
  if ((proposal.kind === 'approval') !== isApprovalTicket(ticket)) {
    const expected = isApprovalTicket(ticket) ? 'an approval response' : 'a tool output';
    return { reason: 'wrong_kind', message: `${what} waits for ${expected}` };
  }
  if ('input' in proposal && proposal.input !== undefined && !jsonEqual(proposal.input, ticket.arguments))
    return { reason: 'input_changed', message: `${what}: the input differs from the call the server holds` };
  return ticket;
}

function decisionFor(proposal: ProposedDecision, ticket: RunWaitingTicket, context?: RunContext) {
  const options = { decisionId: 'pending', ...(context === undefined ? {} : { context }) };

  switch (proposal.kind) {
    case 'approval':
      return proposal.approved
        ? approve(ticket, {
            ...options,
            ...(proposal.reason === undefined ? {} : { reason: proposal.reason }),
          })
        : deny(ticket, proposal.reason, options);
    case 'output':
      return answer(ticket, proposal.output, options);
    case 'output-error':
      // the call never gets a result from the client: it is cancelled and the model reads the error
      return deny(ticket, proposal.errorText, options);
    default:
      return assertNever(proposal, 'proposed decision');
  }
}

/** The proposal's reason for each refusal of the decision judge. */
const JUDGED: Record<DecisionRejectionReason, ProposalRejectionReason> = {
  unknown_tool_call: 'not_waiting',
  not_suspended: 'not_waiting',
  run_finished: 'not_waiting',
  not_live: 'not_waiting',
  invalid_payload: 'invalid_value',
  duplicate_conflict: 'already_decided',
  self_approval_forbidden: 'self_approval_forbidden',
  ticket_expired: 'expired',
};

/**
 * The complete decision for a proposal, or why it cannot be applied: its answer must be storable
 * JSON, and the decision judge must accept it on the run as stored (a repeat of an answer the run
 * already has passes on, to be answered `duplicate`).
 */
function decide(
  proposal: ProposedDecision,
  ticket: RunWaitingTicket,
  options: MatchDecisionsOptions,
): { decision: ToolCallDecisionInput } | { rejection: Omit<RejectedProposal, 'proposal'> } {
  const draft = {
    ...decisionFor(proposal, ticket, options.context),
    channel: 'ai-sdk' as const,
    ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
  };
  const issue = findJsonIssue({ result: draft.result, reason: draft.reason });
  if (issue) {
    const message = `call "${ticket.toolCallId}": the answer is not JSON that can be stored: ${formatJsonIssue(issue)}`;
    return { rejection: { reason: 'invalid_value', message } };
  }
  const decision = { ...draft, decisionId: decisionIdOf(ticket, draft) };
  const { receipt } = judgeDecision(options.run, decision);
  // a repeat of an answer the run has passes on: the server answers it `duplicate`
  if (receipt.status !== 'rejected') return { decision };
  return {
    rejection: { reason: JUDGED[receipt.reason], message: `call "${ticket.toolCallId}": ${receipt.message}` },
  };
}

/**
 * Checks the decisions a client proposes against the tickets the server itself stored for the run:
 * only a call that durably waits can be decided, only in the way it waits (approve/deny an
 * approval, an output for a client tool), only by the part that shows the same call and arguments.
 * The client's copy of history is never trusted: arguments, tool names and earlier results come from
 * the store, so a forged or altered part cannot make a tool run (the AI SDK's vercel/ai#19979).
 */
export function matchDecisions(options: MatchDecisionsOptions): MatchedDecisions {
  const rejected: RejectedProposal[] = [];
  const taken = new Map<string, { proposal: ProposedDecision; decision: ToolCallDecisionInput }>();
  const conflicting = new Set<string>();
  const tickets = [...options.run.calls].flatMap((call) => waitingTicketOf(call) ?? []);
  for (const proposal of options.proposals) {
    const found = ticketFor(proposal, tickets);
    if ('reason' in found) {
      rejected.push({ proposal, ...found });
      continue;
    }
    const decided = decide(proposal, found, options);
    if ('rejection' in decided) {
      rejected.push({ proposal, ...decided.rejection });
      continue;
    }
    const { decision } = decided;
    const earlier = taken.get(found.ticketId);
    if (!earlier) {
      taken.set(found.ticketId, { proposal, decision });
      continue;
    }
    const same = earlier.decision.decisionId === decision.decisionId;
    if (!same) conflicting.add(found.ticketId);
    rejected.push({
      proposal,
      reason: same ? 'duplicate' : 'conflicting',
      message: same
        ? `call "${found.toolCallId}" is answered twice`
        : `call "${found.toolCallId}" is answered twice, differently`,
    });
  }
  const decisions: ToolCallDecisionInput[] = [];
  const conflicts: string[] = [];
  for (const [ticketId, { proposal, decision }] of taken) {
    if (!conflicting.has(ticketId)) {
      decisions.push(decision);
      continue;
    }
    conflicts.push(proposal.toolCallId);
    rejected.push({
      proposal,
      reason: 'conflicting',
      message: `call "${proposal.toolCallId}" is answered twice, differently`,
    });
  }
  return { decisions, rejected, conflicts };
}
