import { decisionRecordSchema, readDecisionRecords } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { requireRun } from '../internal/require-resource';
import { apiRoutes } from '../schemas/api-routes';
import { json, runParamsSchema } from '../schemas/common-schemas';

const listDecisions = apiRoutes(['Decisions']).get('/v1/runs/{runId}/decisions', {
  summary:
    'The audit trail of a run: every applied decision with who decided, when, through which channel, what they saw and what they answered',
  request: { params: runParamsSchema },
  responses: {
    200: json(
      z.object({ runId: z.string(), decisions: z.array(decisionRecordSchema) }),
      'Applied decisions, oldest first',
    ),
  },
});

/**
 * `GET /v1/runs/:runId/decisions` (scope `read`): the decisions the run applied, as its checkpoints
 * stored them. A decision accepted but not applied yet is not listed: the trail says what took effect.
 */
export function registerDecisionRecordRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(listDecisions, async (c) => {
    const { runId } = c.req.valid('param');
    const record = await requireRun(c, runId);
    return c.json({ runId, decisions: readDecisionRecords(record) }, 200);
  });
}
