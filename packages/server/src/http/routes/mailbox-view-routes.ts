import {
  AwakenError,
  type RunDispatchStatus,
  TERMINAL_DISPATCH_STATUSES,
  runDispatchStatusSchema,
} from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { callerOf } from '../internal/run-context';
import { pageRequestOf, pageView } from '../internal/paging';
import { toDispatchView } from '../internal/views';
import { apiRoutes } from '../schemas/api-routes';
import { conflictError, json, jsonBody, pageQuerySchema } from '../schemas/common-schemas';
import { dispatchViewSchema, pageOf } from '../schemas/resource-schemas';

const route = apiRoutes(['Mailbox']);

const countsSchema = z
  .object({
    counts: z.object(
      Object.fromEntries(runDispatchStatusSchema.options.map((status) => [status, z.number()])) as Record<
        RunDispatchStatus,
        z.ZodNumber
      >,
    ),
    /** The store's clock when the counts were read (ms since the epoch). */
    at: z.number(),
  })
  .openapi('DispatchCounts');

const dispatchesQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(runDispatchStatusSchema.options)
    .openapi({ description: 'The status of the dispatches listed (required)' }),
});

const terminalStatusSchema = z.enum(
  TERMINAL_DISPATCH_STATUSES as ['acked', 'cancelled', 'superseded', 'dead_letter'],
);
const expectedCount = z
  .number()
  .int()
  .nonnegative()
  .openapi({ description: 'The confirmation: how many dispatches the caller saw; another count is a 409' });

const purgeAllBodySchema = z
  .object({ status: terminalStatusSchema, expectedCount })
  .strict()
  .openapi('PurgeAll');
const retryAllBodySchema = z.object({ expectedCount }).strict().openapi('RetryAll');

const counts = route.get('/v1/mailbox/counts', {
  summary: 'How many dispatches of the tenant have each status now (from the store status index)',
  responses: { 200: json(countsSchema, 'Counts by status') },
});

const dispatchesByStatus = route.get('/v1/mailbox/dispatches', {
  summary: 'Dispatches of every thread of the tenant with one status, newest enqueued first, paged',
  request: { query: dispatchesQuerySchema },
  responses: { 200: json(pageOf(dispatchViewSchema, 'TenantDispatchPage'), 'A page of dispatches') },
});

const retryAll = route.post('/v1/mailbox/dead-letters/retry-all', {
  summary:
    'Requeue every dead letter (each as a new run, once): refused with 409 when the count of dead letters is not `expectedCount`; one that cannot be requeued now is listed in `failed` and the others are requeued',
  request: { body: jsonBody(retryAllBodySchema) },
  responses: {
    200: json(
      z
        .object({
          requeued: z.array(
            z.object({ dispatchId: z.string(), runId: z.string(), requeuedFrom: z.string() }),
          ),
          /** Dead letters requeued before (their run is not started again). */
          alreadyRequeued: z.number(),
          /**
           * Dead letters that could not be requeued now (a waiting run on their thread, a run or agent
           * gone), with why; the others are requeued all the same. The next retry-all tries them again.
           */
          failed: z.array(z.object({ dispatchId: z.string(), code: z.string(), message: z.string() })),
        })
        .openapi('RetriedAll'),
      'What was requeued',
    ),
    ...conflictError,
  },
});

const purgeAll = route.post('/v1/mailbox/dispatches/purge-all', {
  summary:
    'Delete every dispatch of one terminal status: refused with 409 when their count is not `expectedCount`',
  request: { body: jsonBody(purgeAllBodySchema) },
  responses: {
    200: json(z.object({ purged: z.number() }).openapi('PurgedAll'), 'How many'),
    ...conflictError,
  },
});

/** Why one dead letter is not requeued now, while the others are (a store failure stops them all). */
const REFUSALS = new Set(['conflict', 'not_found', 'validation_failed']);

/** 409 when the count the caller confirmed is not the count now. */
function confirmCount(status: RunDispatchStatus, expected: number, actual: number): void {
  if (expected === actual) return;
  throw new AwakenError(
    'conflict',
    `there are ${actual} ${status.replace('_', ' ')} dispatches now, not ${expected}: look again and confirm the new count`,
    { details: { status, expectedCount: expected, count: actual } },
  );
}

/**
 * The mailbox's tenant-wide view (what the console's mailbox page reads: a constant number of
 * requests whatever the number of threads): counts by status, dispatches of one status paged, and the
 * bulk actions on them, each confirmed by the count the caller saw.
 */
export function registerMailboxViewRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(counts, async (c) => {
    const { mailbox } = c.var.service.stores;
    const [at, byStatus] = await Promise.all([mailbox.now(), mailbox.countDispatches()]);
    return c.json({ counts: byStatus, at }, 200);
  });

  app.openapi(dispatchesByStatus, async (c) => {
    const { status, ...query } = c.req.valid('query');
    const page = await c.var.service.stores.mailbox.listDispatchesByStatus(status, pageRequestOf(query));
    return c.json(pageView(page, toDispatchView), 200);
  });

  app.openapi(retryAll, async (c) => {
    const { expectedCount: expected } = c.req.valid('json');
    const { service } = c.var;
    const { mailbox, threadRuns } = service.stores;
    confirmCount('dead_letter', expected, (await mailbox.countDispatches()).dead_letter);
    const requeued: { dispatchId: string; runId: string; requeuedFrom: string }[] = [];
    const failed: { dispatchId: string; code: string; message: string }[] = [];
    let alreadyRequeued = 0;
    let cursor: string | undefined;
    do {
      const page = await mailbox.listDispatchesByStatus('dead_letter', {
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      for (const dead of page.items) {
        // a requeue reserves its ids first: one refused after that (a waiting run) is not done yet
        const done = dead.requeuedDispatchId && (await mailbox.loadDispatch(dead.requeuedDispatchId));
        if (done) {
          alreadyRequeued += 1;
          continue;
        }
        const record = await threadRuns.getRun(dead.runId);
        const context = { ...record?.context, requeuedBy: callerOf(c) };
        try {
          const run = await service.requeueDeadLetter(dead.dispatchId, { context });
          requeued.push({ dispatchId: run.dispatchId, runId: run.runId, requeuedFrom: run.requeuedFrom });
        } catch (error) {
          if (!(error instanceof AwakenError) || !REFUSALS.has(error.code)) throw error;
          failed.push({ dispatchId: dead.dispatchId, code: error.code, message: error.message });
        }
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return c.json({ requeued, alreadyRequeued, failed }, 200);
  });

  app.openapi(purgeAll, async (c) => {
    const { status, expectedCount: expected } = c.req.valid('json');
    const { mailbox } = c.var.service.stores;
    // the store's time before the count: what reaches the status after it is left alone
    const at = await mailbox.now();
    confirmCount(status, expected, (await mailbox.countDispatches())[status]);
    const purged = await mailbox.purgeTerminal({ olderThan: at + 1, status: [status] });
    return c.json({ purged }, 200);
  });
}
