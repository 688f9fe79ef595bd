import { CLIENT_ID_RULES, MAX_CLIENT_ID_LENGTH, hasControlCharacter, isDotSegment } from '@awaken/contract';
import { z } from '@hono/zod-openapi';

/**
 * An id in a path or body: the one id grammar of every door (`clientIdIssue` of `@awaken/contract`,
 * which A2A's context and task ids follow too): 1–256 characters, no control characters, and not `.`
 * or `..`: a URL normalises those path segments away, so no route could name the thread or run
 * afterwards (the AI SDK client puts the chat id in the path of `resumeStream()`).
 */
export const idSchema = z
  .string()
  .min(1)
  .max(MAX_CLIENT_ID_LENGTH)
  .refine((value) => !hasControlCharacter(value), CLIENT_ID_RULES.control)
  .refine((value) => !isDotSegment(value), CLIENT_ID_RULES.dots);

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'not_found' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi('Error');

/** `?cursor=&limit=` of a paged list. */
export const pageQuerySchema = z.object({
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ example: 50 }),
});

export const threadParamsSchema = z.object({
  threadId: idSchema.openapi({ param: { name: 'threadId', in: 'path' } }),
});
export const runParamsSchema = z.object({
  runId: idSchema.openapi({ param: { name: 'runId', in: 'path' } }),
});
export const dispatchParamsSchema = z.object({
  dispatchId: idSchema.openapi({ param: { name: 'dispatchId', in: 'path' } }),
});
export const agentParamsSchema = z.object({
  agentId: idSchema.openapi({ param: { name: 'agentId', in: 'path' } }),
});

/** A user input: text, or a list of user messages. */
export const inputSchema = z.union(
  [
    z.string().min(1),
    z
      .array(z.object({ role: z.literal('user'), content: z.string() }))
      .min(1)
      .max(100),
  ],
  { error: 'expected a non-empty string or a list of 1–100 user messages ({ role: "user", content })' },
);

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
});

/** The error responses every authenticated route may answer. */
export const commonErrors = {
  400: errorResponse('Malformed JSON'),
  401: errorResponse('Missing or wrong bearer token'),
  403: errorResponse(
    'The token lacks the scope (`forbidden_scope`), or a four-eyes ticket refuses this approver (`self_approval_forbidden`)',
  ),
  404: errorResponse('Unknown id (or one of another tenant)'),
  413: errorResponse('Body over the configured limit'),
  422: errorResponse('Invalid input; the message names the field'),
  503: errorResponse('A store is unavailable'),
} as const;

export const conflictError = { 409: errorResponse('Conflict with the current state') } as const;

/** A JSON response of `schema`. */
export function json<S extends z.ZodType>(schema: S, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** A server-sent event stream response: `description` says what its events are. */
export function eventStream(description: string) {
  return { description, content: { 'text/event-stream': { schema: z.string() } } };
}

/** A required JSON request body. */
export function jsonBody<S extends z.ZodType>(schema: S, required = true) {
  return { required, content: { 'application/json': { schema } } };
}
