import { parseWith } from '@awaken/contract';
import { z } from 'zod';

/** Every state a v6 tool part can be in. */
export const toolPartStateSchema = z.enum([
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
]);
export type ToolPartState = z.infer<typeof toolPartStateSchema>;

/** A tool part (`tool-<name>` or `dynamic-tool`) as the client sends it back: the fields read here. */
export const uiToolPartSchema = z.looseObject({
  type: z.string().min(1),
  toolName: z.string().min(1).optional(),
  toolCallId: z.string().min(1),
  state: toolPartStateSchema,
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  /** The output is progress the server streamed (`tool-output-available` with `preliminary`). */
  preliminary: z.boolean().optional(),
  errorText: z.string().optional(),
  approval: z
    .looseObject({ id: z.string().min(1), approved: z.boolean().optional(), reason: z.string().optional() })
    .optional(),
});
export type UiToolPart = z.infer<typeof uiToolPartSchema>;

/** True for the part types that carry a tool call. */
export function isToolPartType(type: string): boolean {
  return type === 'dynamic-tool' || (type.startsWith('tool-') && type.length > 'tool-'.length);
}

const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

/**
 * A part of a UI message. Text and tool parts are checked (they are what the server reads); other
 * parts (reasoning, files, sources, `data-*`, `step-start`) pass through unread.
 */
export const uiMessagePartSchema = z.looseObject({ type: z.string().min(1) }).superRefine((part, context) => {
  const schema =
    part.type === 'text' ? textPartSchema : isToolPartType(part.type) ? uiToolPartSchema : undefined;
  const parsed = schema?.safeParse(part);
  if (!parsed || parsed.success) return;
  for (const issue of parsed.error.issues)
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
});
export type UiMessagePart = z.infer<typeof uiMessagePartSchema>;

/** A UI message (`UIMessage` of `ai` v6) as the client sends it. */
export const uiMessageSchema = z.looseObject({
  id: z.string().min(1),
  role: z.enum(['system', 'user', 'assistant']),
  metadata: z.unknown().optional(),
  parts: z.array(uiMessagePartSchema),
});
export type UiMessage = z.infer<typeof uiMessageSchema>;

/**
 * The body `DefaultChatTransport` POSTs: the chat `id`, the **full** `messages` history, the
 * `trigger`, the `messageId` of the assistant message being continued or regenerated, and any extra
 * fields the application added (`body` of the transport or of the call), merged at the top level.
 */
export const chatRequestSchema = z.looseObject({
  id: z.string().min(1),
  messages: z.array(uiMessageSchema),
  trigger: z.enum(['submit-message', 'regenerate-message']),
  messageId: z.string().min(1).optional(),
});

export interface ChatRequest {
  /** The chat id: the thread id on the server. */
  id: string;
  messages: UiMessage[];
  trigger: 'submit-message' | 'regenerate-message';
  messageId?: string;
  /** The extra body fields, everything but the four above. */
  body: Record<string, unknown>;
}

/**
 * Validates a `DefaultChatTransport` request body. Throws `AwakenError('validation_failed')` naming
 * every offending field (e.g. `messages.1.parts.2.state`); nothing of the body is trusted beyond
 * its shape.
 */
export function parseChatRequest(body: unknown): ChatRequest {
  const { id, messages, trigger, messageId, ...extra } = parseWith(chatRequestSchema, body, 'chat request');
  return { id, messages, trigger, ...(messageId === undefined ? {} : { messageId }), body: extra };
}
