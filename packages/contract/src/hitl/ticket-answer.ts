import type { OpenTicket } from './open-tickets';
import type { DecisionRejectionReason, ToolCallDecisionInput } from './decision';

/**
 * What a human answered, as a door read it off its wire:
 * - `approval`: yes or no to an approval ticket, with an optional reason and edited arguments;
 * - `output`: a value for a ticket that waits for one (a client tool's output, a human's input, the
 *   answer to an indeterminate call);
 * - `failure`: a client tool reports it failed (the call is cancelled; the model reads the reason);
 * - `cancel`: withdraw the call whatever it waits for (it never runs; the model reads the reason).
 */
export type GivenAnswer =
  | { kind: 'approval'; approved: boolean; reason?: string; editedArguments?: unknown }
  | { kind: 'output'; output: unknown }
  | { kind: 'failure'; reason?: string }
  | { kind: 'cancel'; reason?: string };

/**
 * One answer of a request, naming the question it answers by ticket id (what doors call an approval
 * or interrupt id), by tool call id, or both. `toolName` and `arguments`, when given, are what the
 * human was shown: an answer whose call has another tool or other arguments is refused, so a human
 * never answers a question they did not see.
 */
export interface TicketAnswer {
  ticketId?: string;
  toolCallId?: string;
  toolName?: string;
  arguments?: unknown;
  answer: GivenAnswer;
}

/**
 * Why {@link judgeAnswers} refused an answer: a refusal reason of the decision judge, or one of
 * - `wrong_call`: the ticket belongs to another call than the one named, or to another tool;
 * - `wrong_kind`: an approval for a ticket that waits for a value, or a value for an approval;
 * - `input_changed`: the arguments the human saw are not the call's stored arguments;
 * - `not_editable`: edited arguments for a ticket whose schema does not take them;
 * - `conflicting`: the request answers one ticket twice, differently (neither answer is taken).
 */
export type AnswerRefusalReason =
  | DecisionRejectionReason
  | 'wrong_call'
  | 'wrong_kind'
  | 'input_changed'
  | 'not_editable'
  | 'conflicting';

/** The judgement of one answer, in request order; `ticket` is the open ticket it named, if any. */
export type JudgedAnswer =
  | {
      status: 'accepted';
      index: number;
      answer: TicketAnswer;
      ticket?: OpenTicket;
      decision: ToolCallDecisionInput;
    }
  | {
      status: 'duplicate';
      index: number;
      answer: TicketAnswer;
      ticket?: OpenTicket;
      decision: ToolCallDecisionInput;
      /** True when the same answer came earlier in this request (not an answer the run already has). */
      repeated: boolean;
    }
  | {
      status: 'refused';
      index: number;
      answer: TicketAnswer;
      ticket?: OpenTicket;
      reason: AnswerRefusalReason;
      message: string;
    };

/** What {@link judgeAnswers} says of a request's answers. */
export interface JudgedAnswers {
  /** One judgement per answer, in request order. */
  answers: JudgedAnswer[];
  /** The accepted decisions, each addressed to its call and bound to its ticket: what to deliver. */
  decisions: ToolCallDecisionInput[];
  /** The refused answers (a subset of `answers`). */
  refused: Array<Extract<JudgedAnswer, { status: 'refused' }>>;
  /** Ticket ids (or call ids) the request answers twice, differently: refuse such a request whole. */
  conflicts: string[];
}
