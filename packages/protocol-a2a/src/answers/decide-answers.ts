import {
  type DecisionView,
  type RunContext,
  type ToolCallDecisionInput,
  answer,
  approve,
  deny,
  judgeDecision,
} from '@awaken/contract';
import { A2aError } from '../wire/a2a-errors';
import { type OpenTicket, isApprovalTicket } from './open-tickets';
import { fingerprint } from './fingerprint';
import type { TicketAnswer } from '../request/read-answers';

function ticketOf(answer: TicketAnswer, tickets: readonly OpenTicket[]): OpenTicket {
  const { approvalId, toolCallId, field } = answer;
  const ticket =
    approvalId !== undefined
      ? tickets.find((candidate) => candidate.ticketId === approvalId)
      : tickets.find((candidate) => candidate.toolCallId === toolCallId);
  const what = approvalId !== undefined ? `approval ${approvalId}` : `call ${toolCallId}`;
  if (!ticket)
    throw new A2aError('invalid_params', `invalid params: ${field}: no open ticket of the task is ${what}`, {
      field,
    });
  if ((answer.kind === 'approval') !== isApprovalTicket(ticket)) {
    const expected = isApprovalTicket(ticket) ? '{approved, approvalId}' : '{approvalId, output}';
    throw new A2aError('invalid_params', `invalid params: ${field}: ${what} is answered with ${expected}`, {
      field,
    });
  }
  return ticket;
}

function draftOf(answerOf: TicketAnswer, open: OpenTicket, context?: RunContext): ToolCallDecisionInput {
  const base = { decisionId: 'draft', ...(context ? { context } : {}) };
  // the call the answer names, so the judge refuses a ticket of another call instead of ignoring it
  const ticket = { ticketId: open.ticketId, toolCallId: answerOf.toolCallId ?? open.toolCallId };
  if (answerOf.kind === 'output') return answer(ticket, answerOf.output, base);
  if (!answerOf.approved) return deny(ticket, answerOf.reason, base);
  return approve(ticket, {
    ...base,
    ...(answerOf.reason === undefined ? {} : { reason: answerOf.reason }),
    ...(answerOf.editedArguments === undefined ? {} : { editedArguments: answerOf.editedArguments }),
  });
}

/**
 * Turns the answers of a continuation into decisions for the run's open tickets, each checked by the
 * shared decision judge against the run as stored. All or nothing: an answer for no open ticket, of
 * the wrong kind, a ticket answered twice, or a decision the judge refuses is `-32602` naming the
 * data part, and no decision is returned. The decision id is the ticket plus a digest of the answer,
 * so a re-sent message is applied once.
 */
export function decideAnswers(options: {
  answers: readonly TicketAnswer[];
  tickets: readonly OpenTicket[];
  run: DecisionView;
  context?: RunContext;
  /** The authenticated subject answering: recorded as `decidedBy` (four-eyes tickets need one). */
  decidedBy?: string;
}): ToolCallDecisionInput[] {
  const seen = new Set<string>();
  const decisions: ToolCallDecisionInput[] = [];
  for (const given of options.answers) {
    const ticket = ticketOf(given, options.tickets);
    if (seen.has(ticket.ticketId))
      throw new A2aError(
        'invalid_params',
        `invalid params: ${given.field}: approval ${ticket.ticketId} is answered twice`,
        {
          field: given.field,
        },
      );
    seen.add(ticket.ticketId);
    const draft = draftOf(given, ticket, options.context);
    const digest = fingerprint({
      action: draft.action,
      result: draft.result ?? null,
      reason: draft.reason ?? null,
    });
    const decision: ToolCallDecisionInput = {
      ...draft,
      decisionId: `a2a:${ticket.ticketId}:${digest}`,
      ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
      channel: 'a2a',
    };
    const { receipt } = judgeDecision(options.run, decision);
    if (receipt.status === 'rejected')
      throw new A2aError('invalid_params', `invalid params: ${given.field}: ${receipt.message}`, {
        field: given.field,
        reason: receipt.reason,
      });
    decisions.push(decision);
  }
  return decisions;
}
