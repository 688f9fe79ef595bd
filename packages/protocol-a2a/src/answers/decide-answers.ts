import {
  type DecisionView,
  type JudgedAnswer,
  type OpenTicket,
  type RunContext,
  type TicketAnswer as Answer,
  type ToolCallDecisionInput,
  judgeAnswers,
  questionKindOf,
} from '@awaken/contract';
import { A2aError } from '../wire/a2a-errors';
import type { TicketAnswer } from '../request/read-answers';

/** The shared answer rules' terms for one data part's answer. */
function answerOf(given: TicketAnswer): Answer {
  const ids = {
    ...(given.approvalId === undefined ? {} : { ticketId: given.approvalId }),
    ...(given.toolCallId === undefined ? {} : { toolCallId: given.toolCallId }),
  };
  if (given.kind === 'output') return { ...ids, answer: { kind: 'output', output: given.output } };
  return {
    ...ids,
    answer: {
      kind: 'approval',
      approved: given.approved,
      ...(given.reason === undefined ? {} : { reason: given.reason }),
      ...(given.editedArguments === undefined ? {} : { editedArguments: given.editedArguments }),
    },
  };
}

/** The data part a ticket waits for, as a wrong-kind refusal names it. */
function expectedShape(ticket: OpenTicket | undefined, given: TicketAnswer): string {
  const kind = ticket ? questionKindOf(ticket) : given.kind === 'output' ? 'approval' : 'value';
  if (kind === 'approval') return '{approved, approvalId}';
  if (kind === 'indeterminate') return '{approvalId, outcome: "retry" | "result" | "fail"}';
  return '{approvalId, output}';
}

/** The `-32602` message of a refused answer, naming the data part. */
function refusalMessage(judged: Extract<JudgedAnswer, { status: 'refused' }>, given: TicketAnswer): string {
  const what = given.approvalId !== undefined ? `approval ${given.approvalId}` : `call ${given.toolCallId}`;
  switch (judged.reason) {
    case 'conflicting':
      return `${what} is answered twice`;
    case 'wrong_kind':
      return `${what} is answered with ${expectedShape(judged.ticket, given)}`;
    case 'unknown_tool_call':
    case 'not_suspended':
      if (!judged.ticket) return `no open ticket of the task is ${what}`;
      return judged.message;
    default:
      return judged.message;
  }
}

/**
 * Turns the answers of a continuation into decisions for the run's open tickets through the shared
 * answer rules (`judgeAnswers` of `@awaken/contract`), against the run as stored. All or nothing: an
 * answer for no open ticket, of the wrong kind, a ticket answered two ways, or a decision the judge
 * refuses is `-32602` naming the data part, and no decision is returned. The decision id is the
 * ticket plus a digest of the answer, so a re-sent message is applied once: answers the run already
 * has are not returned (a message of nothing else returns none), and the same answer twice in one
 * message counts once. What is returned is accepted on `run` as judged.
 */
export function decideAnswers(options: {
  answers: readonly TicketAnswer[];
  run: DecisionView;
  context?: RunContext;
  /** The authenticated subject answering: recorded as `decidedBy` (four-eyes tickets need one). */
  decidedBy?: string;
}): ToolCallDecisionInput[] {
  const judged = judgeAnswers(options.run, options.answers.map(answerOf), {
    channel: 'a2a',
    ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
    ...(options.context === undefined ? {} : { context: options.context }),
  });
  // of a ticket answered two ways, the later part is the one to name
  const refused = judged.refused.findLast((entry) => entry.reason === 'conflicting') ?? judged.refused[0];
  if (refused) {
    const given = options.answers[refused.index] as TicketAnswer;
    throw new A2aError(
      'invalid_params',
      `invalid params: ${given.field}: ${refusalMessage(refused, given)}`,
      {
        field: given.field,
        reason: refused.reason,
      },
    );
  }
  return judged.decisions;
}
