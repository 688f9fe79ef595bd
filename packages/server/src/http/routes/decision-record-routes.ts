import { decisionRecordSchema, readDecisionRecords } from '@awaken/contract';
import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { notFound } from '../internal/views';
import { commonErrors, json, runParamsSchema } from '../schemas/common-schemas';

const listDecisions = createRoute({
  method: 'get',
  path: '/v1/runs/{runId}/decisions',
  tags: ['Decisions'],
  summary:
    'The audit trail of a run: every applied decision with who decided, when, through which channel, what they saw and what they answered',
  request: { params: runParamsSchema },
  responses: {
    200: json(
      z.object({ runId: z.string(), decisions: z.array(decisionRecordSchema) }),
      'Applied decisions, oldest first',
    ),
    ...commonErrors,
  },
});

/**
 * `GET /v1/runs/:runId/decisions` (scope `read`): the decisions the run applied, as its checkpoints
 * stored them. A decision accepted but not applied yet is not listed: the trail says what took effect.
 */
export function registerDecisionRecordRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(listDecisions, async (c) => {
    const { runId } = c.req.valid('param');
    c.var.ids.runId = runId;
    const record = await c.var.service.stores.threadRuns.getRun(runId);
    if (!record) throw notFound(`run ${runId}`);
    return c.json({ runId, decisions: readDecisionRecords(record) }, 200);
  });
}
