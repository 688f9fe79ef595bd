import { z } from 'zod';
import { jsonSchemaSchema, toolCallResumeModeSchema } from '../hitl/suspension';
import { nestedQuestionSchema } from '../subagents/nested-question';

/** One open question of a waiting run, as shown to whoever must decide. */
export const runWaitingTicketSchema = z.object({
  ticketId: z.string().min(1),
  toolCallId: z.string().min(1),
  toolName: z.string(),
  action: z.string(),
  message: z.string(),
  arguments: z.unknown().optional(),
  parameters: z.unknown().optional(),
  responseSchema: jsonSchemaSchema.optional(),
  resumeMode: toolCallResumeModeSchema,
  /** When the ticket stops taking answers (epoch ms); absent: it waits for ever. */
  expiresAt: z.number().optional(),
  /** Four-eyes: whoever started the run cannot answer it (present, `true`, only on such tickets). */
  requiresDistinctApprover: z.literal(true).optional(),
  /** The question of a child run this ticket mirrors, with the agent path (see `NestedQuestion`). */
  nested: nestedQuestionSchema.optional(),
});
export type RunWaitingTicket = z.infer<typeof runWaitingTicketSchema>;

/** Why a run waits and for what: stored on the RunRecord while its status is `waiting`. */
export const runWaitingStateSchema = z.object({
  reason: z.enum(['tool_call_suspended', 'user_input']),
  ticketIds: z.array(z.string()),
  tickets: z.array(runWaitingTicketSchema),
  sinceDispatchId: z.string().optional(),
  message: z.string().optional(),
});
export type RunWaitingState = z.infer<typeof runWaitingStateSchema>;
