import {
  type AnswerRefusalReason,
  type DecisionView,
  type GivenAnswer,
  type OpenTicket,
  type RunContext,
  type TicketAnswer,
  type ToolCallDecisionInput,
  isApprovalTicket,
  isClientToolTicket,
  judgeAnswers,
  openTicketsOf,
} from '@awaken/contract';
import {
  type AgUiInputMessage,
  type ResumeEntry,
  contentText,
  parseMaybeJson,
} from '../request/run-agent-input';

/**
 * Why a resume is refused (the `code` of its `RUN_ERROR`; nothing of the request is applied):
 * - `unknown_interrupt`: no call of the run was ever asked this;
 * - `interrupt_resolved`: the interrupt was answered already, differently (or is being answered);
 * - `invalid_payload`: the payload fails the interrupt's `responseSchema` or cannot be stored;
 * - `ticket_expired`: the interrupt expired: it takes no answer, not even a cancel (the call
 *   resolves as expired by itself);
 * - `conflicting_resume`: one interrupt answered twice, differently, in one request;
 * - `run_finished`: the run takes no more answers;
 * - `self_approval_forbidden`: a four-eyes interrupt answered by whoever started the run.
 */
export type ResumeErrorCode =
  | 'unknown_interrupt'
  | 'interrupt_resolved'
  | 'invalid_payload'
  | 'ticket_expired'
  | 'conflicting_resume'
  | 'run_finished'
  | 'self_approval_forbidden';

export interface ResumeError {
  code: ResumeErrorCode;
  message: string;
}

export interface JudgeResumeOptions {
  /** The run as the server's own store holds it (`decisionViewOf(record, now)`). */
  run: DecisionView;
  /** `resume[]` (or the legacy channel's entries). */
  resume: readonly ResumeEntry[];
  /** The client's thread copy: `role:"tool"` messages answer frontend tool calls. */
  messages?: readonly AgUiInputMessage[];
  /** Who decided, stored with every decision. */
  context?: RunContext;
  /** The authenticated subject answering (recorded as `decidedBy`; four-eyes tickets need it). */
  decidedBy?: string;
  /** Epoch ms to judge expiry against: the view's `now`, else `Date.now()`. */
  now?: number;
}

export interface JudgedResume {
  /** Decisions the judge accepts, each addressed to its call and bound to its ticket. */
  decisions: ToolCallDecisionInput[];
  /** Answers the run already has (a replayed resume): nothing to apply, nothing wrong. */
  duplicates: string[];
  /** Frontend tool calls answered by the client's own tool messages. */
  clientAnswered: Set<string>;
}

/** The AG-UI error code of each refusal of the shared answer rules. */
const REFUSED: Record<AnswerRefusalReason, ResumeErrorCode> = {
  unknown_tool_call: 'unknown_interrupt',
  not_suspended: 'interrupt_resolved',
  duplicate_conflict: 'interrupt_resolved',
  invalid_payload: 'invalid_payload',
  run_finished: 'run_finished',
  not_live: 'interrupt_resolved',
  ticket_expired: 'ticket_expired',
  self_approval_forbidden: 'self_approval_forbidden',
  wrong_call: 'invalid_payload',
  wrong_kind: 'invalid_payload',
  input_changed: 'invalid_payload',
  not_editable: 'invalid_payload',
  conflicting: 'conflicting_resume',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a resume entry answers, read with the ticket it names: a cancel; for an approval interrupt,
 * AG-UI's `{approved, reason?, editedArgs?}` (`editedArguments` is read too); for any other interrupt
 * the payload is the answer itself. An entry for no open ticket is read as an approval when its
 * payload says `approved`, so a replay is recognised as the duplicate it is.
 */
function answerOf(entry: ResumeEntry, ticket: OpenTicket | undefined): GivenAnswer | ResumeError {
  const payload = entry.payload;
  const reason = isObject(payload) && typeof payload.reason === 'string' ? payload.reason : undefined;
  if (entry.status === 'cancelled') return { kind: 'cancel', reason: reason ?? 'cancelled' };
  const approval = ticket
    ? isApprovalTicket(ticket)
    : isObject(payload) && typeof payload.approved === 'boolean';
  if (!approval) return { kind: 'output', output: payload };
  if (!isObject(payload) || typeof payload.approved !== 'boolean')
    return {
      code: 'invalid_payload',
      message: `resume ${entry.interruptId}: payload must be {approved: boolean, reason?, editedArgs?}`,
    };
  // a reason that is not text is refused, never dropped: the human's words reach the model or nothing
  if (payload.reason !== undefined && reason === undefined)
    return {
      code: 'invalid_payload',
      message: `resume ${entry.interruptId}: payload.reason must be a string`,
    };
  const edited = payload.editedArgs ?? payload.editedArguments;
  return {
    kind: 'approval',
    approved: payload.approved,
    ...(reason === undefined ? {} : { reason }),
    ...(payload.approved && edited !== undefined ? { editedArguments: edited } : {}),
  };
}

/**
 * Checks a resume against the run the server stored through the shared answer rules
 * (`judgeAnswers` of `@awaken/contract`): every entry must name an interrupt the run really asked, in
 * time, with a payload its schema accepts. All or nothing: any refusal is returned as the request's
 * error and no decision of it is applied. An entry the run already applied is a duplicate (a replayed
 * resume is safe). A `role:"tool"` message answers a waiting frontend tool call; tool messages for
 * calls that `resume` covers, or that wait for nothing, are ignored (the server's own result wins).
 */
export function judgeResume(options: JudgeResumeOptions): JudgedResume | { error: ResumeError } {
  const tickets = openTicketsOf(options.run);
  const answers: TicketAnswer[] = [];
  for (const entry of options.resume) {
    const ticket = tickets.find((candidate) => candidate.ticketId === entry.interruptId);
    const answer = answerOf(entry, ticket);
    if ('code' in answer) return { error: answer };
    answers.push({ ticketId: entry.interruptId, answer });
  }
  const resumed = new Set(options.resume.map((entry) => entry.interruptId));
  const toolMessages = new Map<string, string>();
  for (const message of options.messages ?? []) {
    if (message.role !== 'tool' || message.toolCallId === undefined) continue;
    const ticket = tickets.find((candidate) => candidate.toolCallId === message.toolCallId);
    if (!ticket || !isClientToolTicket(ticket) || resumed.has(ticket.ticketId)) continue;
    toolMessages.set(ticket.ticketId, ticket.toolCallId);
    const answer: GivenAnswer =
      message.error === undefined
        ? { kind: 'output', output: parseMaybeJson(contentText(message.content)) }
        : { kind: 'failure', reason: message.error };
    answers.push({ ticketId: ticket.ticketId, answer });
  }
  const judged = judgeAnswers(options.run, answers, {
    channel: 'ag-ui',
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
    ...(options.context === undefined ? {} : { context: options.context }),
  });
  const refused = judged.refused[0];
  if (refused) {
    const name = refused.answer.ticketId ?? refused.answer.toolCallId;
    return { error: { code: REFUSED[refused.reason], message: `interrupt ${name}: ${refused.message}` } };
  }
  const duplicates = judged.answers.flatMap((entry) =>
    entry.status === 'duplicate' && !entry.repeated ? [entry.answer.ticketId ?? ''] : [],
  );
  const clientAnswered = new Set<string>();
  for (const entry of judged.answers) {
    const callId = toolMessages.get(entry.answer.ticketId ?? '');
    if (callId !== undefined) clientAnswered.add(callId);
  }
  return { decisions: judged.decisions, duplicates, clientAnswered };
}
