import { z } from 'zod';
import { toolCallResumeSchema } from '../hitl/decision';
import { suspendTicketSchema } from '../hitl/suspension';
import { toolCallStatusSchema } from './tool-call-status';
import { toolResultSchema } from './tool-result';

/**
 * The durable state of one tool call, stored at `__tool_call_scope.<callId>.tool_call_state`.
 * `executions` counts how many times the tool body actually ran; the runtime guarantees a call whose
 * result is committed is never executed again.
 */
export const toolCallStateSchema = z.object({
  callId: z.string().min(1),
  toolName: z.string(),
  /** The arguments the model produced (before any resume mode rewrote them). */
  arguments: z.unknown().optional(),
  /**
   * Arguments a human substituted when approving (`editedArguments` of an approval payload). Every
   * later execution of the call, and every ToolGate judgement of it, uses them instead of `arguments`.
   */
  editedArguments: z.unknown().optional(),
  status: toolCallStatusSchema,
  /** The step (1-based) whose assistant turn produced this call. */
  step: z.number().int().positive(),
  /** Position of the call within its assistant turn; results are committed in this order. */
  index: z.number().int().nonnegative(),
  ticket: suspendTicketSchema.optional(),
  /** The decision being or last applied. */
  resume: toolCallResumeSchema.optional(),
  result: toolResultSchema.optional(),
  /** True once the result message for this call has been committed to the thread. */
  resultCommitted: z.boolean().default(false),
  executions: z.number().int().nonnegative().default(0),
  updatedAt: z.number().int().nonnegative(),
});
export type ToolCallState = z.infer<typeof toolCallStateSchema>;
