import {
  type DecisionRejectionReason,
  type DecisionView,
  type RunContext,
  type ToolCallDecisionInput,
  answer,
  approve,
  deny,
  findJsonIssue,
  formatJsonIssue,
  judgeDecision,
} from '@awaken/contract';
import { decisionIdOf } from './decision-id';
import {
  type OpenTicket,
  allowsEditing,
  isApprovalTicket,
  isFrontendTicket,
  openTicketsOf,
} from './open-tickets';
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
 * - `ticket_expired`: the interrupt expired (only `cancelled` is still accepted);
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
  /** The run as the server's own store holds it (`decisionViewOf(record)`). */
  run: DecisionView;
  /** `resume[]` (or the legacy channel's entries). */
  resume: readonly ResumeEntry[];
  /** The client's thread copy: `role:"tool"` messages answer frontend tool calls. */
  messages?: readonly AgUiInputMessage[];
  /** Who decided, stored with every decision. */
  context?: RunContext;
  /** The authenticated subject answering (recorded as `decidedBy`; four-eyes tickets need it). */
  decidedBy?: string;
  /** Epoch ms to judge expiry against. Default `Date.now()`. */
  now?: number;
}

export interface JudgedResume {
  /** Decisions the judge accepts, each addressed by its ticket. */
  decisions: ToolCallDecisionInput[];
  /** Answers the run already has (a replayed resume): nothing to apply, nothing wrong. */
  duplicates: string[];
  /** Frontend tool calls answered by the client's own tool messages. */
  clientAnswered: Set<string>;
}

const JUDGED: Record<DecisionRejectionReason, ResumeErrorCode> = {
  unknown_tool_call: 'unknown_interrupt',
  not_suspended: 'interrupt_resolved',
  duplicate_conflict: 'interrupt_resolved',
  invalid_payload: 'invalid_payload',
  run_finished: 'run_finished',
  not_live: 'interrupt_resolved',
  ticket_expired: 'ticket_expired',
  self_approval_forbidden: 'self_approval_forbidden',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The decision a resume entry asks for, or why its payload cannot be one. */
function decisionFor(
  entry: ResumeEntry,
  ticket: OpenTicket | undefined,
  options: { decisionId: string; context?: RunContext },
): ToolCallDecisionInput | ResumeError {
  const target = ticket ?? entry.interruptId;
  const payload = entry.payload;
  const reason = isObject(payload) && typeof payload.reason === 'string' ? payload.reason : undefined;
  if (entry.status === 'cancelled') return deny(target, reason ?? 'cancelled', options);
  const approval = ticket
    ? isApprovalTicket(ticket)
    : isObject(payload) && typeof payload.approved === 'boolean';
  // an entry for no open ticket goes to the judge as it is: a replay is a duplicate, the rest refused
  if (!approval) return answer(target, payload, options);
  if (!isObject(payload) || typeof payload.approved !== 'boolean') {
    return {
      code: 'invalid_payload',
      message: `resume ${entry.interruptId}: payload must be {approved: boolean, reason?, editedArgs?}`,
    };
  }
  if (!payload.approved) return deny(target, reason, options);
  const edited = payload.editedArgs ?? payload.editedArguments;
  if (edited !== undefined && ticket && !allowsEditing(ticket)) {
    return {
      code: 'invalid_payload',
      message: `resume ${entry.interruptId}: this interrupt does not take editedArgs`,
    };
  }
  if (edited !== undefined && !isObject(edited)) {
    return { code: 'invalid_payload', message: `resume ${entry.interruptId}: editedArgs must be an object` };
  }
  return approve(target, {
    ...options,
    ...(reason === undefined ? {} : { reason }),
    ...(edited === undefined ? {} : { editedArguments: edited }),
  });
}

/**
 * Checks a resume against the run the server stored — every entry must name an interrupt the run
 * really asked, in time, with a payload its schema accepts — through the one decision judge of
 * `@awaken/contract`. All or nothing: any refusal is returned as the request's error and no decision
 * of it is applied. An entry the run already applied is a duplicate (a replayed resume is safe). A
 * `role:"tool"` message answers a waiting frontend tool call; tool messages for calls that `resume`
 * covers, or that wait for nothing, are ignored (the server's own result wins).
 */
export function judgeResume(options: JudgeResumeOptions): JudgedResume | { error: ResumeError } {
  const now = options.now ?? Date.now();
  const context = options.context === undefined ? {} : { context: options.context };
  const tickets = openTicketsOf(options.run);
  const decisions: ToolCallDecisionInput[] = [];
  const duplicates: string[] = [];
  const seen = new Map<string, string>();
  // who answers, for the audit trail and four-eyes tickets: the caller's subject, never the client's claim
  const attribution = {
    ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
    channel: 'ag-ui' as const,
  };
  const judge = (ticketId: string, given: ToolCallDecisionInput): ResumeError | undefined => {
    const decision: ToolCallDecisionInput = { ...given, ...attribution };
    const earlier = seen.get(ticketId);
    if (earlier !== undefined) {
      if (earlier === decision.decisionId) return undefined;
      return { code: 'conflicting_resume', message: `interrupt ${ticketId} is answered twice, differently` };
    }
    seen.set(ticketId, decision.decisionId);
    const issue = findJsonIssue({ result: decision.result, reason: decision.reason });
    if (issue)
      return { code: 'invalid_payload', message: `interrupt ${ticketId}: ${formatJsonIssue(issue)}` };
    const { receipt } = judgeDecision(options.run, decision);
    if (receipt.status === 'duplicate') duplicates.push(ticketId);
    else if (receipt.status === 'accepted') decisions.push(decision);
    else return { code: JUDGED[receipt.reason], message: `interrupt ${ticketId}: ${receipt.message}` };
    return undefined;
  };

  for (const entry of options.resume) {
    const ticket = tickets.find((candidate) => candidate.ticketId === entry.interruptId);
    const decisionId = decisionIdOf(entry.interruptId, {
      status: entry.status,
      payload: entry.payload ?? null,
    });
    if (ticket?.expiresAt !== undefined && ticket.expiresAt <= now && entry.status !== 'cancelled') {
      return {
        error: {
          code: 'ticket_expired',
          message: `interrupt ${entry.interruptId} expired at ${new Date(ticket.expiresAt).toISOString()}: only cancelling it is accepted`,
        },
      };
    }
    const decision = decisionFor(entry, ticket, { decisionId, ...context });
    if ('code' in decision) return { error: decision };
    const refused = judge(entry.interruptId, decision);
    if (refused) return { error: refused };
  }

  const clientAnswered = new Set<string>();
  for (const message of options.messages ?? []) {
    if (message.role !== 'tool' || message.toolCallId === undefined) continue;
    const ticket = tickets.find((candidate) => candidate.toolCallId === message.toolCallId);
    if (!ticket || !isFrontendTicket(ticket) || seen.has(ticket.ticketId)) continue;
    const output = message.error === undefined ? parseMaybeJson(contentText(message.content)) : undefined;
    const decisionId = decisionIdOf(ticket.ticketId, { tool: output ?? null, error: message.error ?? null });
    const decision =
      message.error === undefined
        ? answer(ticket, output, { decisionId, ...context })
        : deny(ticket, message.error, { decisionId, ...context });
    const refused = judge(ticket.ticketId, decision);
    if (refused) return { error: refused };
    clientAnswered.add(ticket.toolCallId);
  }
  return { decisions, duplicates, clientAnswered };
}
