import { findJsonIssue, formatJsonIssue } from '../json/find-json-issue';
import type { RunContext } from '../run/run-context';
import type { ToolCallState } from '../tool/tool-call-state';
import { answerContent, answerDecisionId, answerDigest } from './answer-digest';
import type { DecisionChannel, ToolCallDecisionInput } from './decision';
import type { DecisionView } from './decision-view';
import { judgeDecision } from './judge-decision';
import { type OpenTicket, allowsEditing, openTicketsOf } from './open-tickets';
import { type QuestionKind, questionKindOf } from './question-kind';
import type { AnswerRefusalReason, JudgedAnswer, JudgedAnswers, TicketAnswer } from './ticket-answer';

/** Who answers, through which door, and when. */
export interface JudgeAnswersOptions {
  /** The door the answers came through: recorded with each decision and part of its id. */
  channel: DecisionChannel;
  /** The authenticated subject answering (never the client's claim): four-eyes tickets need one. */
  decidedBy?: string;
  /** Who decided (identity, tenant, request metadata), stored with each decision. */
  context?: RunContext;
  /** The time the answers are judged at (epoch ms): `view.now`, else `Date.now()`. */
  now?: number;
}

type Refusal = { reason: AnswerRefusalReason; message: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const what = (answer: TicketAnswer) =>
  answer.ticketId !== undefined ? `ticket ${answer.ticketId}` : `tool call ${answer.toolCallId}`;

function findTicket(answer: TicketAnswer, open: readonly OpenTicket[]): OpenTicket | undefined {
  if (answer.ticketId !== undefined) return open.find((ticket) => ticket.ticketId === answer.ticketId);
  return open.find((ticket) => ticket.toolCallId === answer.toolCallId);
}

/** What each kind of question waits for, as a refusal names it. */
const EXPECTED: Record<QuestionKind, string> = {
  approval: 'an approval',
  indeterminate: 'an answer {outcome: "retry" | "result" | "fail"} (did the call happen?)',
  client_tool: 'a value',
  value: 'a value',
};

/** Does the answer fit the open ticket it names (call, tool, kind, arguments, editing)? */
function misfit(answer: TicketAnswer, ticket: OpenTicket): Refusal | undefined {
  const { toolCallId, toolName } = answer;
  if (toolCallId !== undefined && toolCallId !== ticket.toolCallId)
    return {
      reason: 'wrong_call',
      message: `${what(answer)} belongs to tool call ${ticket.toolCallId}, not ${toolCallId}`,
    };
  if (toolName !== undefined && toolName !== ticket.toolName)
    return {
      reason: 'wrong_call',
      message: `${what(answer)} is a call to "${ticket.toolName}", not "${toolName}"`,
    };
  const given = answer.answer;
  const kind = questionKindOf(ticket);
  if (given.kind !== 'cancel' && (given.kind === 'approval') !== (kind === 'approval'))
    return { reason: 'wrong_kind', message: `${what(answer)} waits for ${EXPECTED[kind]}` };
  if (given.kind === 'approval' && given.editedArguments !== undefined) {
    if (!allowsEditing(ticket))
      return { reason: 'not_editable', message: `${what(answer)} does not take edited arguments` };
    if (!isRecord(given.editedArguments))
      return { reason: 'invalid_payload', message: `${what(answer)}: edited arguments must be an object` };
  }
  if (
    answer.arguments !== undefined &&
    answerDigest(answer.arguments) !== answerDigest(ticket.arguments ?? null)
  )
    return {
      reason: 'input_changed',
      message: `${what(answer)}: the input differs from the call the run holds`,
    };
  return undefined;
}

/** The decision an answer asks for, addressed as the answer (or its open ticket) names its call. */
type Draft = Omit<ToolCallDecisionInput, 'decisionId'>;

function draftOf(answer: TicketAnswer, ticket: OpenTicket | undefined, now: number): Draft {
  const ticketId = ticket?.ticketId ?? answer.ticketId;
  const toolCallId = ticket?.toolCallId ?? answer.toolCallId;
  const ids = {
    ...(ticketId === undefined ? {} : { ticketId }),
    ...(toolCallId === undefined ? {} : { toolCallId }),
  };
  const given = answer.answer;
  const withReason = (reason: string | undefined) => (reason === undefined ? {} : { reason });
  switch (given.kind) {
    case 'approval': {
      const { approved, reason, editedArguments } = given;
      const edited = approved && editedArguments !== undefined ? { editedArguments } : {};
      return {
        ...ids,
        action: approved ? ('resume' as const) : ('cancel' as const),
        result: { approved, ...withReason(reason), ...edited },
        ...withReason(reason),
        updatedAt: now,
      };
    }
    case 'output':
      return { ...ids, action: 'resume' as const, result: given.output as never, updatedAt: now };
    case 'failure':
      // "it did not complete" to an indeterminate question is its `fail` outcome: the call fails
      // with the reason (the tool does not run), never reads as a declined approval
      if (ticket && questionKindOf(ticket) === 'indeterminate')
        return {
          ...ids,
          action: 'resume' as const,
          result: { outcome: 'fail' as const, ...withReason(given.reason) },
          updatedAt: now,
        };
      return {
        ...ids,
        action: 'cancel' as const,
        result: { approved: false, ...withReason(given.reason) },
        ...withReason(given.reason),
        updatedAt: now,
      };
    case 'cancel':
      return {
        ...ids,
        action: 'cancel' as const,
        result: { approved: false, ...withReason(given.reason) },
        ...withReason(given.reason),
        updatedAt: now,
      };
  }
}

/** The call an answer names among all the run's calls (open or not). */
function callOf(view: DecisionView, decision: ToolCallDecisionInput): ToolCallState | undefined {
  for (const call of view.calls) {
    if (
      decision.ticketId !== undefined
        ? call.ticket?.suspension.id === decision.ticketId
        : call.callId === decision.toolCallId
    )
      return call;
  }
  return undefined;
}

/**
 * True when the run already has this very answer for the call, through the same door, whatever id it
 * came with: applied (`call.resume`) or accepted and queued (`view.pending`). A re-sent answer stays a
 * duplicate across a change of decision-id scheme.
 */
function alreadyAnswered(view: DecisionView, decision: ToolCallDecisionInput): boolean {
  const call = callOf(view, decision);
  if (!call) return false;
  const content = answerDigest(answerContent(decision));
  const same = (held: ToolCallDecisionInput | undefined) =>
    held !== undefined && held.channel === decision.channel && answerDigest(answerContent(held)) === content;
  return same(call.resume) || same(view.pending.find((queued) => queued.toolCallId === call.callId));
}

/**
 * How a request's answers become decisions — the one set of rules every door (the native API, the
 * console, `useChat`, AG-UI, A2A, an approval link) applies before anything reaches the run:
 * 1. the question is looked up among the run's open tickets by ticket id, or by tool call id;
 * 2. an answer naming an open ticket must fit it: the same call and tool (`wrong_call`), the kind it
 *    waits for (`wrong_kind`: an approval for a value, or the reverse; `cancel` fits every ticket),
 *    the arguments the human saw (`input_changed`), editing only where the ticket takes it
 *    (`not_editable`) and only as an object (`invalid_payload`). An `indeterminate` ticket
 *    (`questionKindOf`) takes a value — its own `responseSchema`, `{outcome: 'retry' | 'result' |
 *    'fail', …}`, checked by the judge — and a `failure` answer to it is its `fail` outcome;
 * 3. the answer must be JSON the store can hold (`invalid_payload`, naming the member);
 * 4. its decision id is `<channel>:<ticket>:<digest of the answer>`: the same answer sent again is the
 *    same decision (applied once), another answer to the same ticket is another decision;
 * 5. one ticket answered twice in a request: the same answer again is a `duplicate` (`repeated`), a
 *    different one makes both `conflicting` (neither is taken; `conflicts` names the ticket);
 * 6. then {@link judgeDecision} on the view, at `now`: accepted, `duplicate` (the run has it —
 *    also when it came with another id through the same door), or refused with the judge's reason
 *    (an expired ticket refuses every answer, a cancel too: `ticket_expired`).
 * An answer naming no open ticket still goes to the judge, so a replayed answer is a `duplicate` and
 * anything else is refused with the judge's reason. Pure: it reads the view and applies nothing.
 */
export function judgeAnswers(
  view: DecisionView,
  answers: readonly TicketAnswer[],
  options: JudgeAnswersOptions,
): JudgedAnswers {
  const now = options.now ?? view.now ?? Date.now();
  const judgedView: DecisionView = { ...view, calls: [...view.calls], now };
  const open = openTicketsOf(judgedView);
  const attribution = {
    channel: options.channel,
    ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
    ...(options.context === undefined ? {} : { context: options.context }),
  };
  const seen = new Map<string, { index: number; decisionId: string }>();
  const conflicting = new Set<string>();
  const judgeOne = (answer: TicketAnswer, index: number): JudgedAnswer => {
    const ticket = findTicket(answer, open);
    const found = ticket ? { ticket } : {};
    const refuse = (refusal: Refusal): JudgedAnswer => ({
      status: 'refused',
      index,
      answer,
      ...found,
      ...refusal,
    });
    const unfit = ticket && misfit(answer, ticket);
    if (unfit) return refuse(unfit);
    const draft = draftOf(answer, ticket, now);
    const issue = findJsonIssue({ result: draft.result, reason: draft.reason });
    if (issue)
      return refuse({
        reason: 'invalid_payload',
        message: `${what(answer)}: the answer is not JSON that can be stored: ${formatJsonIssue(issue)}`,
      });
    const key = draft.ticketId ?? `call:${draft.toolCallId}`;
    const decision: ToolCallDecisionInput = {
      ...draft,
      ...attribution,
      decisionId: answerDecisionId(options.channel, draft.ticketId ?? draft.toolCallId ?? '', draft),
    };
    const earlier = seen.get(key);
    if (earlier?.decisionId === decision.decisionId)
      return { status: 'duplicate', index, answer, ...found, decision, repeated: true };
    if (earlier) {
      conflicting.add(key);
      return refuse({ reason: 'conflicting', message: `${what(answer)} is answered twice, differently` });
    }
    seen.set(key, { index, decisionId: decision.decisionId });
    const verdict = judgeDecision(judgedView, decision);
    if (verdict.decision) return { status: 'accepted', index, answer, ...found, decision: verdict.decision };
    if (verdict.receipt.status === 'duplicate' || alreadyAnswered(judgedView, decision))
      return { status: 'duplicate', index, answer, ...found, decision, repeated: false };
    const { reason, message } = verdict.receipt as { reason: AnswerRefusalReason; message: string };
    return refuse({ reason, message });
  };
  const judged = answers.map(judgeOne);
  // a ticket answered two ways: neither answer is taken
  const settled = judged.map((entry): JudgedAnswer => {
    const key =
      entry.status === 'refused'
        ? undefined
        : (entry.decision.ticketId ?? `call:${entry.decision.toolCallId}`);
    if (key === undefined || !conflicting.has(key)) return entry;
    const { answer, index, ticket } = entry;
    return {
      status: 'refused',
      index,
      answer,
      ...(ticket ? { ticket } : {}),
      reason: 'conflicting',
      message: `${what(answer)} is answered twice, differently`,
    };
  });
  return {
    answers: settled,
    decisions: settled.flatMap((entry) => (entry.status === 'accepted' ? [entry.decision] : [])),
    refused: settled.filter(
      (entry): entry is Extract<JudgedAnswer, { status: 'refused' }> => entry.status === 'refused',
    ),
    conflicts: [...conflicting].map((key) => (key.startsWith('call:') ? key.slice(5) : key)),
  };
}
