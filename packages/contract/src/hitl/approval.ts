import { z } from 'zod';
import type { RunContext } from '../run/run-context';
import type { RunWaitingTicket } from '../run/run-waiting-state';
import type { ToolCallDecisionInput } from './decision';
import type { JsonSchema, SuspendTicket } from './suspension';

/**
 * The one approval payload (a decision's `result`) that the runtime, `@awaken/ext-permission` and the
 * protocol adapters agree on. Extra fields are allowed (a plugin may read more, e.g. `remember`).
 *
 * On a ticket whose resume mode is `replay_tool_call`, the runtime honours it for every plugin:
 * `approved: false` cancels the call without running it (the model reads the reason);
 * `approved: true` with `editedArguments` replays the call with those arguments (checked against the
 * tool's schema and judged by ToolGate again). A ticket with `suspension.nested` (a child run's
 * question) is the exception: every answer replays the call, which forwards it to the child.
 */
export const approvalPayloadSchema = z.looseObject({
  approved: z.boolean(),
  reason: z.string().optional(),
  editedArguments: z.unknown().optional(),
});
export type ApprovalPayload = z.infer<typeof approvalPayloadSchema>;

/** {@link approvalPayloadSchema} as a JSON Schema, for a suspension's `responseSchema`. */
export const APPROVAL_PAYLOAD_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    reason: { type: 'string' },
    editedArguments: {},
  },
  required: ['approved'],
};

/** The approval payload in a decision result, or undefined when the result is not one. */
export function readApproval(result: unknown): ApprovalPayload | undefined {
  const parsed = approvalPayloadSchema.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}

/** What the model is told when a human declines a call. */
export function declinedCallMessage(toolName: string, reason?: string): string {
  const why = reason === undefined || reason.trim() === '' ? '' : `: ${reason}`;
  return `The user declined the call to "${toolName}"${why}`;
}

/**
 * What a decision helper accepts as "the ticket": a waiting ticket of a run record or result, the
 * ticket of a `tool_call_suspended` event, or a bare ticket id (a protocol's approval or interrupt id).
 */
export type TicketReference =
  | string
  | Pick<RunWaitingTicket, 'ticketId' | 'toolCallId'>
  | Pick<SuspendTicket, 'suspension' | 'pending'>;

/** Fields every decision helper may set; `decisionId` and `updatedAt` are filled when omitted. */
export interface DecisionOptions {
  /** Idempotency key; a random UUID by default. Reuse it when re-sending the same decision. */
  decisionId?: string;
  /** Unix milliseconds; `Date.now()` by default. */
  updatedAt?: number;
  /** Who decided (identity, tenant, request metadata), stored with the decision. */
  context?: RunContext;
}

function target(ticket: TicketReference): { ticketId: string; toolCallId?: string } {
  if (typeof ticket === 'string') return { ticketId: ticket };
  if ('suspension' in ticket) return { ticketId: ticket.suspension.id, toolCallId: ticket.pending.id };
  return { ticketId: ticket.ticketId, toolCallId: ticket.toolCallId };
}

function base(ticket: TicketReference, options: DecisionOptions) {
  return {
    ...target(ticket),
    decisionId: options.decisionId ?? globalThis.crypto.randomUUID(),
    updatedAt: options.updatedAt ?? Date.now(),
    ...(options.context === undefined ? {} : { context: options.context }),
  };
}

/** What {@link approve} may add to the payload. */
export interface ApproveOptions extends DecisionOptions {
  reason?: string;
  /** The arguments the call runs with instead of the model's. */
  editedArguments?: unknown;
  /** More payload fields a plugin reads, e.g. `{ remember: 'always' }` for `@awaken/ext-permission`. */
  extra?: Record<string, unknown>;
}

/**
 * A complete decision approving a ticket: `resume` with `{approved: true, reason?, editedArguments?}`.
 * With `editedArguments`, a replayed call runs with those arguments instead of the model's.
 */
export function approve(ticket: TicketReference, options: ApproveOptions = {}): ToolCallDecisionInput {
  const { reason, editedArguments, extra, ...rest } = options;
  const result: ApprovalPayload = {
    ...extra,
    approved: true,
    ...(reason === undefined ? {} : { reason }),
    ...(editedArguments === undefined ? {} : { editedArguments }),
  };
  return { ...base(ticket, rest), action: 'resume', result, ...(reason === undefined ? {} : { reason }) };
}

/**
 * A complete decision declining a ticket: `cancel`, so the call never runs whatever plugin or tool
 * created the ticket, and the model reads `reason`. The result carries `{approved: false, reason?}`
 * for audits and adapters.
 */
export function deny(
  ticket: TicketReference,
  reason?: string,
  options: DecisionOptions = {},
): ToolCallDecisionInput {
  const result: ApprovalPayload = { approved: false, ...(reason === undefined ? {} : { reason }) };
  return { ...base(ticket, options), action: 'cancel', result, ...(reason === undefined ? {} : { reason }) };
}

/**
 * A complete decision answering a ticket with a value: the output of a client tool or a human's
 * input. With `use_decision_as_tool_result` the value becomes the tool result; with
 * `pass_decision_to_tool` the tool's new arguments; with `replay_tool_call` the tool reads it as
 * `context.resume.result`.
 */
export function answer(
  ticket: TicketReference,
  result: unknown,
  options: DecisionOptions = {},
): ToolCallDecisionInput {
  return { ...base(ticket, options), action: 'resume', result };
}
