import { randomUUID } from 'node:crypto';
import { AwakenError, forkOriginSchema, threadBranching } from '@awaken/contract';
import { isChildId } from '@awaken/runtime';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpMetrics } from '../http-metrics';
import type { HttpEnv } from '../http-types';
import { runContextOf } from '../internal/run-context';
import { submittedRunResponse } from '../internal/submitted-run-response';
import { apiRoutes } from '../schemas/api-routes';
import {
  conflictError,
  eventStream,
  idSchema,
  json,
  jsonBody,
  runParamsSchema,
} from '../schemas/common-schemas';
import { submittedSchema } from '../schemas/resource-schemas';

const route = apiRoutes(['Runs']);

export const forkRunBodySchema = z
  .object({
    atStep: z
      .number()
      .int()
      .min(1)
      .openapi({ description: 'The step of the run to run again (1 to its `steps`)', example: 2 }),
    runId: idSchema.optional().openapi({ description: "The fork's run id (generated when missing)" }),
    agentId: idSchema
      .optional()
      .openapi({ description: 'The agent the fork runs (default: the one that ran that step)' }),
    instructions: z
      .string()
      .max(100_000)
      .optional()
      .openapi({ description: "A system prompt replacing the agent's own for the fork" }),
    context: z.record(z.string().max(256), z.unknown()).optional(),
    /** `true` (default): the response is the fork's event stream (SSE) until it waits or ends. */
    stream: z.boolean().optional(),
  })
  .strict()
  .openapi('ForkRun');

const forkedSchema = submittedSchema
  .extend({ forkOf: forkOriginSchema.pick({ runId: true, threadId: true, step: true, atSeq: true }) })
  .openapi('ForkedRun');

const forkRun = route.post('/v1/runs/{runId}/fork', {
  summary:
    'Fork a run at one of its steps: a new run on a branch of its thread, reusing everything before that step and asking before repeating a call that must not run twice',
  request: { params: runParamsSchema, body: jsonBody(forkRunBodySchema) },
  responses: {
    200: eventStream('Server-sent events of the fork: `id:` is the event seq, `data:` the event as JSON'),
    202: json(forkedSchema, 'Accepted (with `stream: false`): the fork and where it comes from'),
    ...conflictError,
  },
});

/**
 * `POST /v1/runs/:id/fork {atStep}`: plans the fork (reading only: 404 for an unknown run, 422 naming
 * `atStep`, `agentId` or `runId` for a step the run never started, an unknown agent or a sub-agent's
 * child run), refuses a taken `runId` (409), then branches the run's thread where that step began (by
 * reference) and submits the fork there like any run — durable before the answer, executed by this
 * process (or any worker).
 */
export function registerForkRoutes(
  app: OpenAPIHono<HttpEnv>,
  deps: { metrics: HttpMetrics; keepAliveMs: number },
): void {
  app.openapi(forkRun, async (c) => {
    const { runId: sourceRunId } = c.req.valid('param');
    const body = c.req.valid('json');
    const { service } = c.var;
    c.var.ids.runId = sourceRunId;
    const branching = threadBranching(service.stores.threadRuns);
    if (!branching)
      throw new AwakenError('invalid_config', "this server's thread store does not offer branches");
    const plan = await service.runtime.planFork(sourceRunId, {
      atStep: body.atStep,
      ...(body.agentId ? { agentId: body.agentId } : {}),
      ...(body.instructions === undefined ? {} : { instructions: body.instructions }),
    });
    const runId = body.runId ?? randomUUID();
    if (isChildId('run', runId)) {
      throw new AwakenError(
        'validation_failed',
        "runId: a sub-agent child run's id (sub_ and 32 hex digits) is the runtime's own",
        {
          details: { field: 'runId' },
        },
      );
    }
    // nothing is written for a fork whose run id is taken
    if (await service.stores.threadRuns.getRun(runId))
      throw new AwakenError('conflict', `run ${runId} already exists`, { details: { runId } });
    const branch = await branching.createBranch({ threadId: plan.forkOf.threadId, atSeq: plan.forkOf.atSeq });
    const run = await service.submit({
      agentId: plan.agentId,
      threadId: branch.id,
      runId,
      forkOf: plan.forkOf,
      mode: 'foreground',
      ifBusy: 'conflict',
      origin: 'user',
      context: runContextOf(c, body.context),
    });
    const { repeats: _repeats, instructions: _instructions, ...forkOf } = plan.forkOf;
    return submittedRunResponse(c, {
      run,
      stream: body.stream,
      extra: { forkOf },
      metrics: deps.metrics,
      keepAliveMs: deps.keepAliveMs,
    }) as never;
  });
}
