import type { RunDispatch, RunDispatchStatus } from '@awaken/contract';
import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { callerOf, runContextOf } from '../internal/run-context';
import { notFound, toDispatchView } from '../internal/views';
import {
  commonErrors,
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

const tags = ['Mailbox'];
const dispatchPage = pageOf(dispatchViewSchema, 'DispatchPage');

const submit = createRoute({
  method: 'post',
  path: '/v1/mailbox/submit',
  tags,
  summary: 'Background submit: stored and queued before the answer; any worker runs it',
  request: { body: jsonBody(submitBodySchema) },
  responses: { 202: json(submittedSchema, 'Queued'), ...commonErrors, ...conflictError },
});

const listDispatches = createRoute({
  method: 'get',
  path: '/v1/threads/{threadId}/dispatches',
  tags,
  summary: 'Dispatches of a thread, oldest first, optionally by status',
  request: { params: threadParamsSchema, query: listDispatchesQuerySchema },
  responses: { 200: json(dispatchPage, 'A page of dispatches'), ...commonErrors },
});

const getDispatch = createRoute({
  method: 'get',
  path: '/v1/mailbox/dispatches/{dispatchId}',
  tags,
  summary: 'Get a dispatch',
  request: { params: dispatchParamsSchema },
  responses: { 200: json(dispatchViewSchema, 'The dispatch'), ...commonErrors },
});

const deadLetters = createRoute({
  method: 'get',
  path: '/v1/mailbox/dead-letters',
  tags,
  summary: 'Dead-lettered dispatches, of one thread or of every thread (paged by thread)',
  request: { query: deadLettersQuerySchema },
  responses: { 200: json(dispatchPage, 'A page of dead letters'), ...commonErrors },
});

const requeue = createRoute({
  method: 'post',
  path: '/v1/mailbox/dead-letters/{dispatchId}/requeue',
  tags,
  summary:
    "Requeue a dead letter: a new background run of the same agent on the same thread with the run's input",
  request: { params: dispatchParamsSchema },
  responses: {
    202: json(submittedSchema.extend({ requeuedFrom: z.string() }).openapi('Requeued'), 'Queued'),
    ...commonErrors,
    ...conflictError,
  },
});

const purge = createRoute({
  method: 'post',
  path: '/v1/mailbox/purge',
  tags,
  summary:
    'Delete terminal dispatches (acked, cancelled, superseded, dead letters) last updated before `olderThan`',
  request: { body: jsonBody(purgeBodySchema) },
  responses: { 200: json(z.object({ purged: z.number() }).openapi('Purged'), 'How many'), ...commonErrors },
});

async function requireDispatch(c: { var: HttpEnv['Variables'] }, dispatchId: string): Promise<RunDispatch> {
  const dispatch = await c.var.service.stores.mailbox.loadDispatch(dispatchId);
  if (!dispatch) throw notFound(`dispatch ${dispatchId}`);
  Object.assign(c.var.ids, { dispatchId, threadId: dispatch.threadId, runId: dispatch.runId });
  return dispatch;
}

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
    const { cursor, limit, status } = c.req.valid('query');
    c.var.ids.threadId = threadId;
    const { threadRuns, mailbox } = c.var.service.stores;
    if (!(await threadRuns.getThread(threadId))) throw notFound(`thread ${threadId}`);
    const page = await mailbox.listDispatches(threadId, {
      ...(cursor ? { cursor } : {}),
      ...(limit ? { limit } : {}),
      ...(status ? { status: status.split(',') as RunDispatchStatus[] } : {}),
    });
    return c.json(
      { items: page.items.map(toDispatchView), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      200,
    );
  });

  app.openapi(getDispatch, async (c) => {
    const dispatch = await requireDispatch(c, c.req.valid('param').dispatchId);
    return c.json(toDispatchView(dispatch), 200);
  });

  app.openapi(deadLetters, async (c) => {
    const { threadId, cursor, limit } = c.req.valid('query');
    const { threadRuns, mailbox } = c.var.service.stores;
    const deadLetter = { status: ['dead_letter' as const] };
    if (threadId) {
      c.var.ids.threadId = threadId;
      if (!(await threadRuns.getThread(threadId))) throw notFound(`thread ${threadId}`);
      const page = await mailbox.listDispatches(threadId, {
        ...deadLetter,
        ...(cursor ? { cursor } : {}),
        ...(limit ? { limit } : {}),
      });
      return c.json(
        {
          items: page.items.map(toDispatchView),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        },
        200,
      );
    }
    // every thread: one page of threads per call; the cursor is the thread cursor
    const threads = await threadRuns.listThreads({ ...(cursor ? { cursor } : {}), limit: limit ?? 50 });
    const items: RunDispatch[] = [];
    for (const thread of threads.items) {
      items.push(...(await mailbox.listDispatches(thread.id, { ...deadLetter, limit: 1000 })).items);
    }
    return c.json(
      { items: items.map(toDispatchView), ...(threads.nextCursor ? { nextCursor: threads.nextCursor } : {}) },
      200,
    );
  });

  app.openapi(requeue, async (c) => {
    const dead = await requireDispatch(c, c.req.valid('param').dispatchId);
    const record = await c.var.service.stores.threadRuns.getRun(dead.runId);
    // the original caller's context, and who requeued it; a repeated requeue answers the same run
    const context = { ...record?.context, requeuedBy: callerOf(c) };
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
