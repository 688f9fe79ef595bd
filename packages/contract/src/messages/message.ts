import { z } from 'zod';

/** A tool call as the model emitted it. `arguments` is the parsed JSON (or the raw text if unparseable). */
export const toolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.unknown().optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export const userMessageSchema = z.object({ role: z.literal('user'), content: z.string() });
export const systemMessageSchema = z.object({ role: z.literal('system'), content: z.string() });

/** An assistant turn: text, optional reasoning, and the tool calls it requested (possibly none). */
export const assistantMessageSchema = z.object({
  role: z.literal('assistant'),
  text: z.string(),
  reasoning: z.string().optional(),
  toolCalls: z.array(toolCallSchema),
});

/**
 * The one result of one tool call. `outcome` tells the model whether the call succeeded, failed
 * (error, invalid arguments, unknown tool, blocked), was cancelled (a human rejected it; `content`
 * then carries the reason) or expired (nobody answered its approval in time; it never ran).
 */
export const toolMessageSchema = z.object({
  role: z.literal('tool'),
  toolCallId: z.string().min(1),
  toolName: z.string(),
  outcome: z.enum(['succeeded', 'failed', 'cancelled', 'expired']),
  content: z.unknown().optional(),
});

export const messageSchema = z.discriminatedUnion('role', [
  userMessageSchema,
  systemMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
]);
export type UserMessage = z.infer<typeof userMessageSchema>;
export type SystemMessage = z.infer<typeof systemMessageSchema>;
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;
export type ToolMessage = z.infer<typeof toolMessageSchema>;
export type Message = z.infer<typeof messageSchema>;

/** `external` messages are shown to users; `internal` ones only feed the model. */
export const visibilitySchema = z.enum(['external', 'internal']);
export type Visibility = z.infer<typeof visibilitySchema>;
