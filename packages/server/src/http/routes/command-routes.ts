// The HTTP face of the run commands cancel, interrupt and inject (decisions have decision-routes.ts).
// The OpenAPI tag keeps its published name, 'Run control'.
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { callerOf } from '../internal/run-context';
import { toRunView } from '../internal/views';
import { apiRoutes } from '../schemas/api-routes';
import {
  conflictError,
  json,
  jsonBody,
  runParamsSchema,
  threadParamsSchema,
} from '../schemas/common-schemas';
import { injectBodySchema, reasonBodySchema } from '../schemas/request-schemas';
import { runViewSchema } from '../schemas/resource-schemas';

const route = apiRoutes(['Run control']);

const cancelRun = route.post('/v1/runs/{runId}/cancel', {
  summary: 'Cancel a run (idempotent: a finished run is returned as it is)',
  request: { params: runParamsSchema, body: jsonBody(reasonBodySchema, false) },
  responses: { 200: json(runViewSchema, 'The run after the cancel'), ...conflictError },
});

const interruptThread = route.post('/v1/threads/{threadId}/interrupt', {
  summary: 'Latest wins: supersede queued work, cancel the executing and the waiting run',
  request: { params: threadParamsSchema, body: jsonBody(reasonBodySchema, false) },
  responses: {
    200: json(
      z
        .object({
          threadId: z.string(),
          newDispatchEpoch: z.number(),
          supersededCount: z.number(),
          cancelledRunId: z.string().optional(),
        })
        .openapi('InterruptResult'),
      'What the interrupt did',
    ),
  },
});

const injectInput = route.post('/v1/threads/{threadId}/inject', {
  summary:
    'Inject user input: `queue` (next run), `steer` (the active run, at its next step), `interrupt` (then run it), `resume` (the open waiting run)',
  request: { params: threadParamsSchema, body: jsonBody(injectBodySchema) },
  responses: {
    202: json(
      z
        .object({
          mode: z.enum(['queue', 'steer', 'interrupt', 'resume']),
          runId: z.string(),
          dispatchId: z.string().optional(),
        })
        .openapi('InjectResult'),
      'Accepted',
    ),
    ...conflictError,
  },
});

export function registerCommandRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(cancelRun, async (c) => {
    const { runId } = c.req.valid('param');
    c.var.ids.runId = runId;
    const reason = c.req.valid('json')?.reason;
    const record = await c.var.service.commands.cancelRun(runId, reason ?? 'cancelled over HTTP');
    c.var.ids.threadId = record.threadId;
    return c.json(toRunView(record), 200);
  });

  app.openapi(interruptThread, async (c) => {
    const { threadId } = c.req.valid('param');
    c.var.ids.threadId = threadId;
    const reason = c.req.valid('json')?.reason;
    const result = await c.var.service.commands.interruptThread(threadId, reason ?? 'interrupted over HTTP');
    return c.json(result, 200);
  });

  app.openapi(injectInput, async (c) => {
    const { threadId } = c.req.valid('param');
    const body = c.req.valid('json');
    c.var.ids.threadId = threadId;
    const result = await c.var.service.commands.injectUserInput({
      threadId,
      input: body.input,
      mode: body.mode,
      ...(body.agentId ? { agentId: body.agentId } : {}),
      // who sends it: the starter of the run it starts, or an asker of the run it steers or resumes
      context: { caller: callerOf(c) },
    });
    c.var.ids.runId = result.runId;
    if (result.dispatchId) c.var.ids.dispatchId = result.dispatchId;
    return c.json(result, 202);
  });
}
