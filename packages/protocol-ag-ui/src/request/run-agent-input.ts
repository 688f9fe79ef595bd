import { AwakenError, clientIdIssue, formatZodIssues } from '@awaken/contract';
import { z } from 'zod';

/** A thread or run id: the server's one id grammar (`clientIdIssue`). */
const idSchema = z.string().superRefine((value, ctx) => {
  const issue = clientIdIssue(value);
  if (issue) ctx.addIssue({ code: 'custom', message: issue });
});

/** A message of the client's thread copy; only the fields this adapter reads are checked. */
export const agUiInputMessageSchema = z.looseObject({
  id: z.string().min(1),
  role: z.enum(['user', 'assistant', 'system', 'developer', 'tool', 'reasoning', 'activity']),
  content: z.unknown().optional(),
  toolCallId: z.string().min(1).optional(),
  error: z.string().optional(),
});
export type AgUiInputMessage = z.infer<typeof agUiInputMessageSchema>;

/** A frontend tool the client advertises (`RunAgentInput.tools`). */
export const agUiToolSchema = z.looseObject({
  name: z.string().min(1).max(128),
  description: z.string().default(''),
  parameters: z.record(z.string(), z.unknown()).optional(),
});

/** One answer to an interrupt (`RunAgentInput.resume[]`). */
export const resumeEntrySchema = z.looseObject({
  interruptId: z.string().min(1),
  status: z.enum(['resolved', 'cancelled']),
  payload: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type ResumeEntry = z.infer<typeof resumeEntrySchema>;

/** AG-UI's `RunAgentInput`, as `HttpAgent` sends it; unknown fields are ignored. */
export const runAgentInputSchema = z.looseObject({
  threadId: idSchema,
  runId: idSchema,
  parentRunId: z.string().optional(),
  protocolVersion: z.string().optional(),
  state: z.unknown().optional(),
  messages: z.array(agUiInputMessageSchema),
  tools: z.array(agUiToolSchema).default([]),
  context: z.array(z.looseObject({ description: z.string(), value: z.string() })).default([]),
  forwardedProps: z.unknown().optional(),
  resume: z.array(resumeEntrySchema).optional(),
});
export type RunAgentInput = z.infer<typeof runAgentInputSchema>;

/** Parses a request body: `validation_failed` naming the field when it is not a `RunAgentInput`. */
export function parseRunAgentInput(body: unknown): RunAgentInput {
  const parsed = runAgentInputSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw new AwakenError(
    'validation_failed',
    `invalid RunAgentInput: ${formatZodIssues(parsed.error.issues)}`,
    {
      details: { issues },
    },
  );
}

/** The text of a message's content: a string, or the text parts of a part list. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && part.type === 'text' ? String(part.text ?? '') : ''))
    .join('');
}

/** The client's new user message: the last message when it is a user message. */
export function newUserMessage(input: RunAgentInput): AgUiInputMessage | undefined {
  const last = input.messages.at(-1);
  return last?.role === 'user' ? last : undefined;
}

/**
 * The resume entries of a request: `resume[]`, else the pre-1.0 channel
 * `forwardedProps.command.resume` (a bare value answering the single open interrupt, or entries),
 * which CopilotKit-era clients still send. `openIds` names the interrupts the bare value may answer.
 */
export function resumeEntriesOf(input: RunAgentInput, openIds: readonly string[]): ResumeEntry[] {
  if (input.resume !== undefined) return input.resume;
  const props = input.forwardedProps as { command?: { resume?: unknown } } | undefined;
  const legacy = props?.command?.resume;
  if (legacy === undefined) return [];
  const entries = z.array(resumeEntrySchema).safeParse(legacy);
  if (entries.success) return entries.data;
  const value = typeof legacy === 'string' ? parseMaybeJson(legacy) : legacy;
  if (openIds.length !== 1) {
    throw new AwakenError(
      'validation_failed',
      `forwardedProps.command.resume: a bare value answers one interrupt, and ${openIds.length} are open; send resume[]`,
    );
  }
  return [{ interruptId: openIds[0] as string, status: 'resolved', payload: value }];
}

/** A tool message's content as the value it carries (JSON when it parses, the text otherwise). */
export function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
