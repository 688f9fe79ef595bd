import { z } from 'zod';
import { jsonValueSchema } from '../json/json-value-schema';
import { runContextSchema } from '../run/run-context';

/** `resume` proceeds per the ticket's resume mode; `cancel` moves the call to `cancelled`. */
export const resumeDecisionActionSchema = z.enum(['resume', 'cancel']);
export type ResumeDecisionAction = z.infer<typeof resumeDecisionActionSchema>;

/**
 * The way a decision reached the run: the HTTP API, an AI SDK chat, AG-UI, A2A, an approval link, or
 * in-process code (`runtime`). Recorded with the decision in the run's audit trail.
 */
export const decisionChannelSchema = z.enum(['api', 'ai-sdk', 'ag-ui', 'a2a', 'link', 'runtime']);
export type DecisionChannel = z.infer<typeof decisionChannelSchema>;

/**
 * A human's decision for one suspended call (`ToolCallResume`). `decisionId` is the
 * idempotency key: delivering the same decision twice applies it once. `result` must be a value JSON
 * holds faithfully (no BigInt, NaN, cycle, or nesting beyond the depth limit), so whatever is
 * accepted can be stored. `context` says who decided (identity, tenant, request metadata); it is
 * stored with the decision.
 */
export const toolCallResumeSchema = z.object({
  decisionId: z.string().min(1),
  action: resumeDecisionActionSchema,
  result: jsonValueSchema.optional(),
  reason: z.string().optional(),
  updatedAt: z.number().int().nonnegative(),
  context: runContextSchema.optional(),
  /**
   * Who decided: the authenticated subject of the sender (the server sets it from the bearer token,
   * a client cannot claim it), or the identity an approval link was issued for. A ticket that requires
   * an approver other than the people who asked for the run's actions refuses a decision without one.
   */
  decidedBy: z.string().min(1).max(256).optional(),
  /**
   * Who vouched for `decidedBy` when it is not the sender's own token: the authenticated subject that
   * issued the approval link the decision came through (`decidedBy` is the approver the link names).
   * Set by the server, recorded in the audit trail; a four-eyes ticket refuses a decision whose issuer
   * asked for the run's actions, as it refuses one decided by them.
   */
  issuedBy: z.string().min(1).max(256).optional(),
  /** How the decision arrived; recorded in the audit trail. */
  channel: decisionChannelSchema.optional(),
});
export type ToolCallResume = z.infer<typeof toolCallResumeSchema>;

/**
 * A decision addressed to one tool call of a run: what channels, inboxes and events carry.
 * `ticketId`, when set, binds it to one suspension of that call: if the call no longer waits on that
 * ticket (it was answered, or a later turn reused the tool call id), the decision is rejected instead
 * of answering a question nobody saw. The runtime sets it on every decision it accepts.
 */
export const toolCallDecisionSchema = toolCallResumeSchema.extend({
  toolCallId: z.string().min(1),
  ticketId: z.string().min(1).optional(),
});
export type ToolCallDecision = z.infer<typeof toolCallDecisionSchema>;

/**
 * A decision as a caller sends it: addressed by tool call id, by ticket (suspension) id, or both.
 * Protocol ids (the AI SDK `approvalId`, the AG-UI interrupt id, the A2A approval id) are ticket ids.
 * The runtime resolves it against the run's suspended calls into a {@link ToolCallDecision}; naming a
 * ticket and a call that do not belong together is rejected.
 */
export const toolCallDecisionInputSchema = toolCallResumeSchema
  .extend({
    toolCallId: z.string().min(1).optional(),
    ticketId: z.string().min(1).optional(),
  })
  .refine((decision) => decision.toolCallId !== undefined || decision.ticketId !== undefined, {
    message: 'a decision names its call by toolCallId or ticketId',
    path: ['toolCallId'],
  });
export type ToolCallDecisionInput = z.infer<typeof toolCallDecisionInputSchema>;

/**
 * Why a decision was not applied; returned to the sender, never applied to another call.
 * `not_live`: the run is waiting but has no live activation on this handle (deliver the decision
 * with a resume instead). `self_approval_forbidden`: the ticket requires an approver other than the
 * people who asked for the run's actions (four-eyes: its starter, who steered or resumed it with
 * input, who edited a call's arguments), and the decision came from one of them, through a link one
 * of them issued, or from nobody identified. `ticket_expired`: the ticket's `expiresAt` has passed (the call resolves,
 * or resolved, as expired); the answer is never applied.
 */
export const decisionRejectionReasonSchema = z.enum([
  'unknown_tool_call',
  'not_suspended',
  'invalid_payload',
  'duplicate_conflict',
  'run_finished',
  'not_live',
  'self_approval_forbidden',
  'ticket_expired',
]);
export type DecisionRejectionReason = z.infer<typeof decisionRejectionReasonSchema>;

/**
 * The outcome of delivering one decision. `duplicate` means the same `decisionId` was given before.
 * An accepted receipt names the call the decision resolved to (also when the decision named only its
 * ticket) and the ticket it answers; a duplicate or rejected one names what is known of its target.
 */
export type DecisionReceipt =
  | { toolCallId: string; ticketId?: string; decisionId: string; status: 'accepted' }
  | { toolCallId?: string; ticketId?: string; decisionId: string; status: 'duplicate' }
  | {
      toolCallId?: string;
      ticketId?: string;
      decisionId: string;
      status: 'rejected';
      reason: DecisionRejectionReason;
      message: string;
    };
