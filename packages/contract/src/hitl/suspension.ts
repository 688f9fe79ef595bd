import { z } from 'zod';
import { nestedQuestionSchema } from '../subagents/nested-question';

/** A JSON value as it crosses a process boundary. */
export const jsonValueSchema = z.unknown().optional();

/** A JSON Schema document (draft 2020-12 subset) describing an expected decision payload. */
export const jsonSchemaSchema = z.record(z.string(), z.unknown().optional());
export type JsonSchema = z.infer<typeof jsonSchemaSchema>;

/**
 * The external-facing payload of a suspension: what input is needed. When
 * `responseSchema` is set, a decision whose `result` does not validate against it is rejected and the
 * call stays suspended.
 */
export const suspensionSchema = z.object({
  id: z.string().min(1),
  action: z.string().min(1),
  message: z.string(),
  parameters: z.unknown().optional(),
  responseSchema: jsonSchemaSchema.optional(),
  /**
   * Four-eyes: only a decision whose `decidedBy` is set and differs from the subject who started the
   * run (`context.caller.subject` of the run record) may answer it; any other is refused
   * `self_approval_forbidden` by the decision judge, on every path.
   */
  requiresDistinctApprover: z.boolean().optional(),
  /**
   * Set when this ticket mirrors a question asked inside a child run (a sub-agent or a remote
   * agent): where the question is and what it asks (see {@link nestedQuestionSchema}). Its decision is
   * forwarded to the child instead of being applied to this call.
   */
  nested: nestedQuestionSchema.optional(),
});
export type Suspension = z.infer<typeof suspensionSchema>;

/** The projection of the waiting tool call sent to clients, so a frontend knows which call waits. */
export const pendingToolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.unknown().optional(),
});
export type PendingToolCall = z.infer<typeof pendingToolCallSchema>;

/**
 * How a decision is applied: re-execute with the original arguments (default); use the
 * decision payload as the tool result without executing; or execute with the payload as new arguments.
 */
export const toolCallResumeModeSchema = z.enum([
  'replay_tool_call',
  'use_decision_as_tool_result',
  'pass_decision_to_tool',
]);
export type ToolCallResumeMode = z.infer<typeof toolCallResumeModeSchema>;

/** Everything needed to present and later resolve one suspended tool call. */
export const suspendTicketSchema = z.object({
  suspension: suspensionSchema,
  pending: pendingToolCallSchema,
  resumeMode: toolCallResumeModeSchema,
  /**
   * When the ticket stops accepting answers (epoch ms, UTC). Protocol adapters show it (AG-UI and
   * A2A as an ISO string); past it the call resolves as expired and a late decision is refused.
   */
  expiresAt: z.number().int().nonnegative().optional(),
});
export type SuspendTicket = z.infer<typeof suspendTicketSchema>;
