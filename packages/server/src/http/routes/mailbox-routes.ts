import { type RunDispatchStatus, runAskersOf, runStarterOf } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { callerOf, runContextOf } from '../internal/run-context';
import { listRequestOf, pageRequestOf, pageView } from '../internal/paging';
import { requireDispatch, requireThread } from '../internal/require-resource';
import { toDispatchView } from '../internal/views';
import { apiRoutes } from '../schemas/api-routes';
import {
  conflictError,
  dispatchParamsSchema,
  json,
  jsonBody,
  threadParamsSchema,
} from '../schemas/common-schemas';
import {
  deadLettersQuerySchema,
  listDispatchesQuerySchema,
  purgeBodySchema,
  submitBodySchema,
} from '../schemas/request-schemas';
import { dispatchViewSchema, pageOf, submittedSchema } from '../schemas/resource-schemas';

const route = apiRoutes(['Mailbox']);
const dispatchPage = pageOf(dispatchViewSchema, 'DispatchPage');

const submit = route.post('/v1/mailbox/submit', {
  summary: 'Background submit: stored and queued before the answer; any worker runs it',
  request: { body: jsonBody(submitBodySchema) },
  responses: { 202: json(submittedSchema, 'Queued'), ...conflictError },
});

const listDispatches = route.get('/v1/threads/{threadId}/dispatches', {
  summary: 'Dispatches of a thread, oldest first, optionally by status',
  request: { params: threadParamsSchema, query: listDispatchesQuerySchema },
  responses: { 200: json(dispatchPage, 'A page of dispatches') },
});

const getDispatch = route.get('/v1/mailbox/dispatches/{dispatchId}', {
  summary: 'Get a dispatch',
  request: { params: dispatchParamsSchema },
  responses: { 200: json(dispatchViewSchema, 'The dispatch') },
});

const deadLetters = route.get('/v1/mailbox/dead-letters', {
  summary: 'Dead-lettered dispatches, of one thread (oldest first) or of every thread (newest first)',
  request: { query: deadLettersQuerySchema },
  responses: { 200: json(dispatchPage, 'A page of dead letters') },
});

const requeue = route.post('/v1/mailbox/dead-letters/{dispatchId}/requeue', {
  summary:
    "Requeue a dead letter: a new background run of the same agent on the same thread with the run's input",
  request: { params: dispatchParamsSchema },
  responses: {
    202: json(submittedSchema.extend({ requeuedFrom: z.string() }).openapi('Requeued'), 'Queued'),
    ...conflictError,
  },
});

const purge = route.post('/v1/mailbox/purge', {
  summary:
    'Delete terminal dispatches (acked, cancelled, superseded, dead letters) last updated before `olderThan`',
  request: { body: jsonBody(purgeBodySchema) },
  responses: { 200: json(z.object({ purged: z.number() }).openapi('Purged'), 'How many') },
});

export function registerMailboxRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(submit, async (c) => {
    const body = c.req.valid('json');
    const run = await c.var.service.submit({
      ...body,
      mode: 'background',
      origin: 'user',
      context: runContextOf(c, body.context),
    });
    Object.assign(c.var.ids, { threadId: run.threadId, runId: run.runId, dispatchId: run.dispatchId });
    return c.json({ runId: run.runId, threadId: run.threadId, dispatchId: run.dispatchId }, 202);
  });

  app.openapi(listDispatches, async (c) => {
    const { threadId } = c.req.valid('param');
    await requireThread(c, threadId);
    const request = listRequestOf<RunDispatchStatus>(c.req.valid('query'));
    const page = await c.var.service.stores.mailbox.listDispatches(threadId, request);
    return c.json(pageView(page, toDispatchView), 200);
  });

  app.openapi(getDispatch, async (c) => {
    const dispatch = await requireDispatch(c, c.req.valid('param').dispatchId);
    return c.json(toDispatchView(dispatch), 200);
  });

  app.openapi(deadLetters, async (c) => {
    const { threadId, cursor, limit } = c.req.valid('query');
    const { mailbox } = c.var.service.stores;
    const deadLetter = { status: ['dead_letter' as const] };
    if (threadId) {
      await requireThread(c, threadId);
      const page = await mailbox.listDispatches(threadId, {
        ...deadLetter,
        ...pageRequestOf({ cursor, limit }),
      });
      return c.json(pageView(page, toDispatchView), 200);
    }
    // every thread: the store's status index, newest first (one read, whatever the number of threads)
    const page = await mailbox.listDispatchesByStatus('dead_letter', pageRequestOf({ cursor, limit }));
    return c.json(pageView(page, toDispatchView), 200);
  });

  app.openapi(requeue, async (c) => {
    const dead = await requireDispatch(c, c.req.valid('param').dispatchId);
    const record = await c.var.service.stores.threadRuns.getRun(dead.runId);
    // the original caller's context (its starter stays the starter), everyone else who asked for
    // what the dead run did (they stay askers: the new run reads the same thread), and who requeued
    // it; a repeated requeue answers the same run
    const askers = record ? runAskersOf(record).filter((subject) => subject !== runStarterOf(record)) : [];
    const context = {
      ...record?.context,
      ...(askers.length === 0 ? {} : { askers }),
      requeuedBy: callerOf(c),
    };
    const run = await c.var.service.requeueDeadLetter(dead.dispatchId, { context });
    Object.assign(c.var.ids, { runId: run.runId, dispatchId: run.dispatchId });
    return c.json(run, 202);
  });

  app.openapi(purge, async (c) => {
    const { olderThan } = c.req.valid('json');
    const purged = await c.var.service.stores.mailbox.purgeTerminal({ olderThan });
    return c.json({ purged }, 200);
  });
}
