import {
  APPROVAL_PAYLOAD_JSON_SCHEMA,
  type JsonSchema,
  type Suspension,
  type ToolCall,
  approvalPayloadSchema,
  callInstanceKey,
  declinedCallMessage,
} from '@awaken/contract';
import { z } from 'zod';
import type { PermissionDecision } from './create-permission-policy';

/**
 * Prefix of the suspension ids the permission plugin creates: `permission:<step>:<toolCallId>`, one
 * per call instance, so a model that reuses a tool call id in a later turn gets a new ticket.
 */
export const PERMISSION_SUSPENSION_PREFIX = 'permission:';

/**
 * The decision payload that answers an ask: the contract's approval payload
 * `{approved, reason?, editedArguments?}` (build it with `approve` / `deny` from `@awaken/contract`),
 * plus `remember`. Unknown fields are refused.
 */
export const permissionApprovalSchema = z.strictObject({
  ...approvalPayloadSchema.shape,
  remember: z.enum(['once', 'always']).optional(),
});
export type PermissionApproval = z.infer<typeof permissionApprovalSchema>;

/** {@link permissionApprovalSchema} as the JSON Schema put on every ask ticket. */
export const PERMISSION_APPROVAL_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    ...(APPROVAL_PAYLOAD_JSON_SCHEMA.properties as Record<string, unknown>),
    remember: { enum: ['once', 'always'] },
  },
  required: ['approved'],
  additionalProperties: false,
};

const MAX_ARGUMENTS_IN_MESSAGE = 300;

/** The arguments as text, cut after 300 UTF-16 units but never inside a surrogate pair (stores refuse half an emoji). */
export function previewArguments(args: unknown): string {
  const text = typeof args === 'string' ? args : (JSON.stringify(args) ?? 'undefined');
  if (text.length <= MAX_ARGUMENTS_IN_MESSAGE) return text;
  const last = text.charCodeAt(MAX_ARGUMENTS_IN_MESSAGE - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_ARGUMENTS_IN_MESSAGE - 1 : MAX_ARGUMENTS_IN_MESSAGE;
  return `${text.slice(0, end)}…`;
}

/** The ticket id of the `ask` for one call instance (`step` is the step of the call's turn). */
export function approvalTicketId(step: number, call: Pick<ToolCall, 'id'>): string {
  return `${PERMISSION_SUSPENSION_PREFIX}${callInstanceKey({ step, call })}`;
}

const EDITED = '#edited-';

/**
 * The ticket id of the ask for a call whose arguments a human edited into a four-eyes rule while
 * approving `previous` (one of this call instance's tickets): `<approvalTicketId>#edited-<n>`, a new
 * question each time, never the id of one already answered.
 */
export function editedApprovalTicketId(step: number, call: Pick<ToolCall, 'id'>, previous: string): string {
  const base = approvalTicketId(step, call);
  const count = previous.startsWith(`${base}${EDITED}`)
    ? Number(previous.slice(base.length + EDITED.length))
    : 0;
  return `${base}${EDITED}${(Number.isSafeInteger(count) ? count : 0) + 1}`;
}

/** True when `ticketId` is one of the asks of this call instance (the first, or one after an edit). */
export function isApprovalTicketOf(ticketId: string, step: number, call: Pick<ToolCall, 'id'>): boolean {
  const base = approvalTicketId(step, call);
  return (
    ticketId === base ||
    (ticketId.startsWith(`${base}${EDITED}`) && /^\d+$/.test(ticketId.slice(base.length + EDITED.length)))
  );
}

/**
 * The suspension of an `ask`: what a frontend shows and which answer it accepts. `edited`: the ask
 * again for arguments a human edited while approving (its own ticket id, see
 * {@link editedApprovalTicketId}).
 */
export function buildApprovalSuspension(
  step: number,
  call: ToolCall,
  decision: PermissionDecision,
  edited?: { ticketId: string },
): Suspension {
  const what = edited ? 'edited arguments' : 'arguments';
  return {
    id: edited?.ticketId ?? approvalTicketId(step, call),
    action: 'confirm',
    message: `Allow tool "${call.name}" with ${what} ${previewArguments(call.arguments)}? (${decision.reason})`,
    parameters: {
      toolName: call.name,
      arguments: call.arguments,
      rule: decision.rule ?? null,
      reason: decision.reason,
    },
    responseSchema: PERMISSION_APPROVAL_JSON_SCHEMA,
    ...(decision.requireDistinctApprover ? { requiresDistinctApprover: true } : {}),
  };
}

/** What the model is told when a human declines (the contract's wording, shared with the runtime). */
export function refusalReason(toolName: string, reason: string | undefined): string {
  return declinedCallMessage(toolName, reason);
}
