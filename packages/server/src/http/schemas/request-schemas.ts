import { runDispatchStatusSchema } from '@awaken/contract';
import { z } from '@hono/zod-openapi';
import { idSchema, inputSchema, pageQuerySchema } from './common-schemas';

const reason = z.string().max(2000);

export const createThreadBodySchema = z
  .object({
    id: idSchema.optional(),
    metadata: z.record(z.string().max(256), z.unknown()).optional(),
  })
  .strict()
  .openapi('CreateThread');

const submitFields = {
  agentId: idSchema.openapi({ example: 'demo' }),
  threadId: idSchema.optional(),
  runId: idSchema.optional(),
  input: inputSchema.openapi({ example: 'please delete /tmp/report.txt' }),
  /** What to do when the thread is busy (see the service's `ifBusy`). */
  ifBusy: z.enum(['interrupt', 'queue', 'conflict']).optional(),
  priority: z.number().int().min(0).max(255).optional(),
  /**
   * Caller metadata stored with the run (a JSON object) and shown to hooks and tools as `runContext`.
   * Its `caller` key is always set by the server (tenant, subject, request id).
   */
  context: z.record(z.string().max(256), z.unknown()).optional(),
  /**
   * Client tools: tools the caller executes itself. A call to one waits for the caller's output, sent
   * back as a decision whose `result` becomes the tool result. `parameters` is a JSON Schema.
   */
  tools: z
    .array(
      z
        .object({
          name: z.string().min(1).max(128),
          description: z.string().max(4000).optional(),
          parameters: z.record(z.string(), z.unknown()).openapi({ example: { type: 'object' } }),
        })
        .strict(),
    )
    .max(128)
    .optional(),
};

export const startRunBodySchema = z
  .object({
    ...submitFields,
    /** `true` (default): the response is the run's event stream (SSE) until it waits or ends. */
    stream: z.boolean().optional(),
  })
  .strict()
  .openapi('StartRun');
export type StartRunBody = z.infer<typeof startRunBodySchema>;

export const submitBodySchema = z.object(submitFields).strict().openapi('BackgroundSubmit');
export type SubmitBody = z.infer<typeof submitBodySchema>;

export const decisionBodySchema = z
  .object({
    toolCallId: idSchema.optional(),
    ticketId: idSchema.optional(),
    /** Idempotency key: the same decision sent twice is applied once. Generated when missing. */
    decisionId: idSchema.optional(),
    action: z.enum(['resume', 'cancel']).optional().openapi({ example: 'resume' }),
    result: z
      .unknown()
      .optional()
      .openapi({ example: { approved: true } }),
    reason: reason.optional(),
  })
  .strict()
  .refine((decision) => decision.toolCallId !== undefined || decision.ticketId !== undefined, {
    message: 'a decision names its call by toolCallId or ticketId',
    path: ['toolCallId'],
  })
  .openapi('Decision');
export type DecisionBody = z.infer<typeof decisionBodySchema>;

export const decisionsBodySchema = z
  .object({ decisions: z.array(decisionBodySchema).min(1).max(100) })
  .strict()
  .openapi('DecisionBatch');

export const reasonBodySchema = z.object({ reason: reason.optional() }).strict().openapi('Reason');

export const injectBodySchema = z
  .object({
    input: inputSchema,
    mode: z.enum(['queue', 'steer', 'interrupt', 'resume']),
    agentId: idSchema.optional(),
  })
  .strict()
  .openapi('InjectInput');

export const purgeBodySchema = z
  .object({ olderThan: z.number().int().nonnegative().openapi({ description: 'ms since the epoch' }) })
  .strict()
  .openapi('Purge');

const statuses = (values: readonly string[]) =>
  new RegExp(`^(${values.join('|')})(,(${values.join('|')}))*$`);

export const listRunsQuerySchema = pageQuerySchema.extend({
  status: z
    .string()
    .regex(statuses(['created', 'running', 'waiting', 'done']), 'a comma-separated list of run statuses')
    .optional(),
});

export const listDispatchesQuerySchema = pageQuerySchema.extend({
  status: z
    .string()
    .regex(statuses(runDispatchStatusSchema.options), 'a comma-separated list of dispatch statuses')
    .optional(),
});

export const deadLettersQuerySchema = pageQuerySchema.extend({ threadId: idSchema.optional() });

export const messagesQuerySchema = z.object({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ description: 'only messages with a greater seq' }),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  visibility: z.enum(['external', 'internal']).optional(),
});

export const eventsQuerySchema = z.object({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ description: 'resume after this seq (the `Last-Event-ID` header wins)' }),
});
