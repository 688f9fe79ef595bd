import type { RunStatus } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { SCAN_BUDGET, listRunsPage } from '../internal/run-listing';
import { requireThread } from '../internal/require-resource';
import { toRunView } from '../internal/views';
import { apiRoutes } from '../schemas/api-routes';
import { idSchema, json, pageQuerySchema } from '../schemas/common-schemas';
import { runViewSchema } from '../schemas/resource-schemas';

const RUN_STATUSES = ['created', 'running', 'waiting', 'done'];
const TERMINATIONS = ['natural_end', 'behavior_requested', 'stopped', 'cancelled', 'blocked', 'error'];
const commaList = (values: readonly string[], what: string) =>
  z
    .string()
    .regex(
      new RegExp(`^(${values.join('|')})(,(${values.join('|')}))*$`),
      `a comma-separated list of ${what}`,
    );
const millis = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const listRunsQuerySchema = pageQuerySchema.extend({
  status: commaList(RUN_STATUSES, 'run statuses')
    .optional()
    .openapi({ description: 'Only runs with one of these statuses now (default: every run)' }),
  threadId: idSchema.optional().openapi({ description: 'Only the runs of this thread' }),
  agentId: z.string().min(1).max(256).optional(),
  termination: commaList(TERMINATIONS, 'termination types')
    .optional()
    .openapi({ description: 'Only done runs that ended so (`error`: the failed ones)' }),
  from: millis.optional().openapi({ description: 'Created at or after (ms since the epoch)' }),
  to: millis.optional().openapi({ description: 'Created before (ms since the epoch)' }),
  q: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Text in the run or thread id, agent, prompt, response or error (any case)' }),
  tool: z.string().min(1).max(128).optional().openapi({ description: 'Only runs that called this tool' }),
});

const runListItemSchema = runViewSchema
  .extend({
    prompt: z.string().optional().openapi({ description: 'The first user message of the run input' }),
  })
  .openapi('RunListItem');

const listRuns = apiRoutes(['Runs']).get('/v1/runs', {
  summary: `Runs of every thread of the tenant, newest first: by status and thread from the store's indexes; agent, termination, time, text and tool filter the runs read (at most ${SCAN_BUDGET} per request: a page may come back short with a nextCursor)`,
  request: { query: listRunsQuerySchema },
  responses: {
    200: json(
      z
        .object({
          items: z.array(runListItemSchema),
          nextCursor: z.string().optional(),
          /** Runs read to answer (more than the items when filters apply beyond status and thread). */
          scanned: z.number(),
        })
        .openapi('RunList'),
      'A page of runs',
    ),
  },
});

/** `GET /v1/runs`: the console's runs list (every status tab, search, paging past any count). */
export function registerRunListRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(listRuns, async (c) => {
    const query = c.req.valid('query');
    if (query.threadId !== undefined) await requireThread(c, query.threadId);
    const page = await listRunsPage(c.var.service.stores.threadRuns, {
      limit: query.limit ?? 50,
      ...(query.cursor ? { cursor: query.cursor } : {}),
      ...(query.status ? { status: query.status.split(',') as RunStatus[] } : {}),
      ...(query.threadId ? { threadId: query.threadId } : {}),
      ...(query.agentId ? { agentId: query.agentId } : {}),
      ...(query.termination ? { termination: query.termination.split(',') } : {}),
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
      ...(query.q ? { text: query.q } : {}),
      ...(query.tool ? { tool: query.tool } : {}),
    });
    return c.json(
      {
        items: page.items.map((item) => ({
          ...toRunView(item.record),
          ...(item.prompt === undefined ? {} : { prompt: item.prompt }),
        })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        scanned: page.scanned,
      },
      200,
    );
  });
}
