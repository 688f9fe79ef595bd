import { z } from 'zod';
import { jsonValueSchema } from '../json/json-value-schema';

/** `resume` proceeds per the ticket's resume mode; `cancel` moves the call to `cancelled`. */
export const resumeDecisionActionSchema = z.enum(['resume', 'cancel']);
export type ResumeDecisionAction = z.infer<typeof resumeDecisionActionSchema>;

/**
 * A human's decision for one suspended call (`ToolCallResume`). `decisionId` is the
 * idempotency key: delivering the same decision twice applies it once. `result` must be a value JSON
 * holds faithfully (no BigInt, NaN, cycle, or nesting beyond the depth limit), so whatever is
 * accepted can be stored.
 */
export const toolCallResumeSchema = z.object({
  decisionId: z.string().min(1),
  action: resumeDecisionActionSchema,
  result: jsonValueSchema.optional(),
  reason: z.string().optional(),
  updatedAt: z.number().int().nonnegative(),
});
export type ToolCallResume = z.infer<typeof toolCallResumeSchema>;

/** A decision addressed to one tool call of a run: what channels, inboxes and HTTP carry. */
export const toolCallDecisionSchema = toolCallResumeSchema.extend({
  toolCallId: z.string().min(1),
});
export type ToolCallDecision = z.infer<typeof toolCallDecisionSchema>;

/**
 * Why a decision was not applied; returned to the sender, never applied to another call.
 * `not_live`: the run is waiting but has no live activation on this handle (deliver the decision
 * with a resume instead).
 */
export const decisionRejectionReasonSchema = z.enum([
  'unknown_tool_call',
  'not_suspended',
  'invalid_payload',
  'duplicate_conflict',
  'run_finished',
  'not_live',
]);
export type DecisionRejectionReason = z.infer<typeof decisionRejectionReasonSchema>;

/** The outcome of delivering one decision. `duplicate` means the same `decisionId` was applied before. */
export type DecisionReceipt =
  | { toolCallId: string; decisionId: string; status: 'accepted' | 'duplicate' }
  | {
      toolCallId: string;
      decisionId: string;
      status: 'rejected';
      reason: DecisionRejectionReason;
      message: string;
    };
