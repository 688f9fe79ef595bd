import type { JsonSchema, Suspension, ToolCall } from '@awaken/contract';
import { z } from 'zod';
import type { PermissionDecision } from './create-permission-policy';

/** Prefix of the suspension ids the permission plugin creates: `permission:<toolCallId>`. */
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

/** The arguments as text, cut after 300 UTF-16 units but never inside a surrogate pair (stores refuse half an emoji). */
export function previewArguments(args: unknown): string {
  const text = typeof args === 'string' ? args : (JSON.stringify(args) ?? 'undefined');
  if (text.length <= MAX_ARGUMENTS_IN_MESSAGE) return text;
  const last = text.charCodeAt(MAX_ARGUMENTS_IN_MESSAGE - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_ARGUMENTS_IN_MESSAGE - 1 : MAX_ARGUMENTS_IN_MESSAGE;
  return `${text.slice(0, end)}…`;
}

/** The suspension of an `ask`: what a frontend shows and which answer it accepts. */
export function buildApprovalSuspension(call: ToolCall, decision: PermissionDecision): Suspension {
  return {
    id: `${PERMISSION_SUSPENSION_PREFIX}${call.id}`,
    action: 'confirm',
    message: `Allow tool "${call.name}" with arguments ${previewArguments(call.arguments)}? (${decision.reason})`,
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
