import {
  type AnswerRefusalReason,
  type DecisionView,
  type JudgedAnswer,
  type QuestionKind,
  type RunContext,
  type TicketAnswer,
  type ToolCallDecisionInput,
  assertNever,
  judgeAnswers,
  questionKindOf,
} from '@awaken/contract';
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
   * The run as the server's own store holds it (`decisionViewOf(record, now)`): the tickets it durably
   * waits on, and what the shared answer rules (`judgeAnswers`) check every answer against.
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
  /**
   * The ids of the decisions the shared answer rules accepted on `run` (the rest of `decisions` are
   * repeats of answers the run holds, to be answered `duplicate`): a server may skip judging these
   * again while the run stands as judged.
   */
  accepted: ReadonlySet<string>;
}

/** The answer a tool part proposes, in the shared answer rules' terms. */
function answerOf(proposal: ProposedDecision): TicketAnswer {
  const shown = {
    toolCallId: proposal.toolCallId,
    ...(proposal.toolName === undefined ? {} : { toolName: proposal.toolName }),
    ...(proposal.input === undefined ? {} : { arguments: proposal.input }),
  };
  switch (proposal.kind) {
    case 'approval': {
      const reason = proposal.reason === undefined ? {} : { reason: proposal.reason };
      return {
        ...shown,
        ticketId: proposal.approvalId,
        answer: { kind: 'approval', approved: proposal.approved, ...reason },
      };
    }
    case 'output':
      return { ...shown, answer: { kind: 'output', output: proposal.output } };
    case 'output-error':
      // the call never gets a result from the client: it is cancelled and the model reads the error
      return { ...shown, answer: { kind: 'failure', reason: proposal.errorText } };
    default:
      return assertNever(proposal, 'proposed decision');
  }
}

/** The proposal's reason for each refusal of the shared answer rules. */
const REFUSED: Record<AnswerRefusalReason, ProposalRejectionReason> = {
  unknown_tool_call: 'not_waiting',
  not_suspended: 'not_waiting',
  run_finished: 'not_waiting',
  not_live: 'not_waiting',
  invalid_payload: 'invalid_value',
  not_editable: 'invalid_value',
  duplicate_conflict: 'already_decided',
  self_approval_forbidden: 'self_approval_forbidden',
  ticket_expired: 'expired',
  wrong_call: 'wrong_call',
  wrong_kind: 'wrong_kind',
  input_changed: 'input_changed',
  conflicting: 'conflicting',
};

/** What each kind of question waits for, in this door's words. */
const WAITS_FOR: Record<QuestionKind, string> = {
  approval: 'an approval response',
  indeterminate: 'a tool output {outcome: "retry" | "result" | "fail"} (addToolOutput)',
  client_tool: 'a tool output',
  value: 'a tool output',
};

function describe(proposal: ProposedDecision): string {
  return proposal.kind === 'approval' ? `approval "${proposal.approvalId}"` : `call "${proposal.toolCallId}"`;
}

/** The message of a refused proposal, in this door's words where the door checked the part. */
function refusalMessage(
  judged: Extract<JudgedAnswer, { status: 'refused' }>,
  proposal: ProposedDecision,
  what: string,
): string {
  const { ticket } = judged;
  if (!ticket)
    return REFUSED[judged.reason] === 'not_waiting'
      ? `${what}: no call of the run waits for it`
      : `${what}: ${judged.message}`;
  switch (judged.reason) {
    case 'wrong_call':
      return ticket.toolCallId !== proposal.toolCallId
        ? `${what} belongs to call "${ticket.toolCallId}"`
        : `${what} is a call to "${ticket.toolName}", not "${proposal.toolName}"`;
    case 'wrong_kind':
      return `${what} waits for ${WAITS_FOR[questionKindOf(ticket)]}`;
    case 'input_changed':
      return `${what}: the input differs from the call the server holds`;
    default:
      return `${what}: ${judged.message}`;
  }
}

/** What becomes of one judged answer: a decision to deliver, or a rejected proposal. */
function outcomeOf(
  judged: JudgedAnswer,
  proposal: ProposedDecision,
): ToolCallDecisionInput | RejectedProposal {
  const what = describe(proposal);
  switch (judged.status) {
    case 'accepted':
      return judged.decision;
    case 'duplicate':
      if (judged.repeated)
        return { proposal, reason: 'duplicate', message: `call "${proposal.toolCallId}" is answered twice` };
      // a repeat of an answer the run holds passes on while its call waits: the server answers it
      // `duplicate`; a stale part of a question no longer open is not waiting
      if (judged.ticket) return judged.decision;
      return { proposal, reason: 'not_waiting', message: `${what}: no call of the run waits for it` };
    case 'refused': {
      const reason = REFUSED[judged.reason];
      return { proposal, reason, message: refusalMessage(judged, proposal, what) };
    }
    default:
      return assertNever(judged, 'judged answer');
  }
}

/**
 * Checks the decisions a client proposes against the tickets the server itself stored for the run,
 * through the shared answer rules (`judgeAnswers` of `@awaken/contract`): only a call that durably
 * waits can be decided, only in the way it waits (approve/deny an approval, an output for a client
 * tool), only by the part that shows the same call and arguments. The client's copy of history is
 * never trusted: arguments, tool names and earlier results come from the store, so a forged or
 * altered part cannot make a tool run (the AI SDK's vercel/ai#19979).
 */
export function matchDecisions(options: MatchDecisionsOptions): MatchedDecisions {
  const judged = judgeAnswers(options.run, options.proposals.map(answerOf), {
    channel: 'ai-sdk',
    ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
    ...(options.context === undefined ? {} : { context: options.context }),
  });
  const decisions: ToolCallDecisionInput[] = [];
  const rejected: RejectedProposal[] = [];
  judged.answers.forEach((entry, index) => {
    const outcome = outcomeOf(entry, options.proposals[index] as ProposedDecision);
    if ('proposal' in outcome) rejected.push(outcome);
    else decisions.push(outcome);
  });
  const conflicts = [
    ...new Set(
      judged.answers.flatMap((entry) =>
        entry.status === 'refused' && entry.reason === 'conflicting'
          ? [entry.ticket?.toolCallId ?? entry.answer.toolCallId ?? '']
          : [],
      ),
    ),
  ];
  const accepted = new Set(judged.decisions.map((decision) => decision.decisionId));
  return { decisions, rejected, conflicts, accepted };
}
