import { AwakenError } from '@awaken/contract';
import { isChildId } from '@awaken/runtime';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { refuseChildRun } from '../../internal/child-runs/refuse-child-run';
import type { HttpEnv } from '../http-types';
import { pageRequestOf } from '../internal/paging';
import { requireThread } from '../internal/require-resource';
import { apiRoutes } from '../schemas/api-routes';
import {
  conflictError,
  json,
  jsonBody,
  pageQuerySchema,
  threadParamsSchema,
} from '../schemas/common-schemas';
import { messagesQuerySchema, createThreadBodySchema } from '../schemas/request-schemas';
import { messageViewSchema, pageOf, threadViewSchema } from '../schemas/resource-schemas';

const route = apiRoutes(['Threads']);

const createThread = route.post('/v1/threads', {
  summary: 'Create a thread',
  request: { body: jsonBody(createThreadBodySchema, false) },
  responses: { 201: json(threadViewSchema, 'The new thread'), ...conflictError },
});

const threadListQuerySchema = pageQuerySchema.extend({
  order: z.enum(['oldest', 'newest']).optional().openapi({
    description:
      '`oldest` (default): creation order, oldest first. `newest`: the thread written last first (a message, a run, a metadata change), as a thread list shows them',
  }),
  includeSubthreads: z.enum(['true', 'false']).optional().openapi({
    description:
      "`true`: also the threads of sub-agents' child runs (`subthread_…`), which are left out by default — each is reached from its parent run. Without them a page may hold fewer than `limit` threads; follow `nextCursor`",
  }),
});

const listThreads = route.get('/v1/threads', {
  summary: 'List threads (paged), oldest first or the thread written last first',
  request: { query: threadListQuerySchema },
  responses: { 200: json(pageOf(threadViewSchema, 'ThreadPage'), 'A page of threads') },
});

const getThread = route.get('/v1/threads/{threadId}', {
  summary: 'Get a thread',
  request: { params: threadParamsSchema },
  responses: { 200: json(threadViewSchema, 'The thread') },
});

const deleteThread = route.delete('/v1/threads/{threadId}', {
  summary:
    "Delete a thread, its messages and runs (refused while a run executes or is queued, and for a sub-agent's child thread)",
  request: { params: threadParamsSchema },
  responses: { 204: { description: 'Deleted' }, ...conflictError },
});

const listMessages = route.get('/v1/threads/{threadId}/messages', {
  summary: "A thread's messages in seq order (paged by seq)",
  request: { params: threadParamsSchema, query: messagesQuerySchema },
  responses: { 200: json(pageOf(messageViewSchema, 'MessagePage'), 'A page of messages') },
});

export function registerThreadRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(createThread, async (c) => {
    const body = c.req.valid('json') ?? {};
    const thread = await c.var.service.stores.threadRuns.createThread({
      ...(body.id ? { id: body.id } : {}),
      metadata: body.metadata ?? {},
    });
    c.var.ids.threadId = thread.id;
    return c.json(thread, 201);
  });

  app.openapi(listThreads, async (c) => {
    const { order, includeSubthreads, ...query } = c.req.valid('query');
    const page = await c.var.service.stores.threadRuns.listThreads({
      ...pageRequestOf(query),
      ...(order ? { order } : {}),
    });
    if (includeSubthreads === 'true') return c.json(page, 200);
    return c.json({ ...page, items: page.items.filter((thread) => !isChildId('thread', thread.id)) }, 200);
  });

  app.openapi(getThread, async (c) => {
    const thread = await requireThread(c, c.req.valid('param').threadId);
    return c.json(thread, 200);
  });

  app.openapi(deleteThread, async (c) => {
    const { threadId } = c.req.valid('param');
    const thread = await requireThread(c, threadId);
    const { threadRuns, mailbox } = c.var.service.stores;
    // a sub-agent's child thread goes with its parent: its run may be running inline, or awaited
    // (once the parent is deleted, the orphan may go)
    const latest = thread.latestRunId ? await threadRuns.getRun(thread.latestRunId) : null;
    if (latest?.parentRunId !== undefined && (await threadRuns.getRun(latest.parentRunId))) {
      await refuseChildRun(threadRuns, latest, 'delete its thread');
    }
    const busy = await mailbox.listDispatches(threadId, { status: ['queued', 'claimed'], limit: 1 });
    if (busy.items.length > 0) {
      throw new AwakenError('conflict', `thread ${threadId} has queued or executing work; cancel it first`);
    }
    // a waiting run is cancelled first: its end cancels the sub-agents' child runs its questions
    // wait on, which would otherwise wait for ever with no parent to answer through
    const open = thread.openRunId ? await threadRuns.getRun(thread.openRunId) : null;
    if (open?.status === 'waiting')
      await c.var.service.commands.cancelRun(open.runId, 'its thread was deleted');
    await threadRuns.deleteThread(threadId);
    return c.body(null, 204);
  });

  app.openapi(listMessages, async (c) => {
    const { threadId } = c.req.valid('param');
    await requireThread(c, threadId);
    const { after = 0, limit = 100, visibility } = c.req.valid('query');
    const { threadRuns } = c.var.service.stores;
    const count = await threadRuns.messageCount(threadId);
    const to = Math.min(count, after + limit);
    const items =
      after >= count
        ? []
        : await threadRuns.readMessages(threadId, {
            from: after + 1,
            to,
            ...(visibility ? { visibility } : {}),
          });
    // nextCursor is the `after` of the next page
    return c.json({ items, ...(to < count ? { nextCursor: String(to) } : {}) }, 200);
  });
}
