import { type JsonSchema, type Suspension, type ToolCall, callInstanceKey } from '@awaken/contract';
import { z } from 'zod';
import type { PermissionDecision } from './create-permission-policy';

/**
 * Prefix of the suspension ids the permission plugin creates: `permission:<step>:<toolCallId>`, one
 * per call instance, so a model that reuses a tool call id in a later turn gets a new ticket.
 */
export const PERMISSION_SUSPENSION_PREFIX = 'permission:';

/** The decision payload a human sends to answer an ask: `{approved, reason?, remember?}`. */
export const permissionApprovalSchema = z
  .object({
    approved: z.boolean(),
    reason: z.string().optional(),
    remember: z.enum(['once', 'always']).optional(),
  })
  .strict();
export type PermissionApproval = z.infer<typeof permissionApprovalSchema>;

/** {@link permissionApprovalSchema} as the JSON Schema put on every ask ticket. */
export const PERMISSION_APPROVAL_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    reason: { type: 'string' },
    remember: { enum: ['once', 'always'] },
  },
  required: ['approved'],
  additionalProperties: false,
};

const MAX_ARGUMENTS_IN_MESSAGE = 300;

function preview(args: unknown): string {
  const text = typeof args === 'string' ? args : (JSON.stringify(args) ?? 'undefined');
  return text.length <= MAX_ARGUMENTS_IN_MESSAGE ? text : `${text.slice(0, MAX_ARGUMENTS_IN_MESSAGE)}…`;
}

/** The ticket id of the `ask` for one call instance (`step` is the step of the call's turn). */
export function approvalTicketId(step: number, call: Pick<ToolCall, 'id'>): string {
  return `${PERMISSION_SUSPENSION_PREFIX}${callInstanceKey({ step, call })}`;
}

/** The suspension of an `ask`: what a frontend shows and which answer it accepts. */
export function buildApprovalSuspension(
  step: number,
  call: ToolCall,
  decision: PermissionDecision,
): Suspension {
  return {
    id: approvalTicketId(step, call),
    action: 'confirm',
    message: `Allow tool "${call.name}" with arguments ${preview(call.arguments)}? (${decision.reason})`,
    parameters: {
      toolName: call.name,
      arguments: call.arguments,
      rule: decision.rule ?? null,
      reason: decision.reason,
    },
    responseSchema: PERMISSION_APPROVAL_JSON_SCHEMA,
  };
}

/** What the model is told when a human declines. */
export function refusalReason(toolName: string, reason: string | undefined): string {
  const why = reason === undefined || reason.trim() === '' ? '' : `: ${reason}`;
  return `The user declined the call to "${toolName}"${why}`;
}
