import { AwakenError } from '@awaken/contract';
import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { notFound } from '../internal/views';
import {
  commonErrors,
  conflictError,
  json,
  jsonBody,
  pageQuerySchema,
  threadParamsSchema,
} from '../schemas/common-schemas';
import { messagesQuerySchema, createThreadBodySchema } from '../schemas/request-schemas';
import { messageViewSchema, pageOf, threadViewSchema } from '../schemas/resource-schemas';

const tags = ['Threads'];

const createThread = createRoute({
  method: 'post',
  path: '/v1/threads',
  tags,
  summary: 'Create a thread',
  request: { body: jsonBody(createThreadBodySchema, false) },
  responses: { 201: json(threadViewSchema, 'The new thread'), ...commonErrors, ...conflictError },
});

const listThreads = createRoute({
  method: 'get',
  path: '/v1/threads',
  tags,
  summary: 'List threads (paged)',
  request: { query: pageQuerySchema },
  responses: { 200: json(pageOf(threadViewSchema, 'ThreadPage'), 'A page of threads'), ...commonErrors },
});

const getThread = createRoute({
  method: 'get',
  path: '/v1/threads/{threadId}',
  tags,
  summary: 'Get a thread',
  request: { params: threadParamsSchema },
  responses: { 200: json(threadViewSchema, 'The thread'), ...commonErrors },
});

const deleteThread = createRoute({
  method: 'delete',
  path: '/v1/threads/{threadId}',
  tags,
  summary: 'Delete a thread, its messages and runs (refused while a run executes or is queued)',
  request: { params: threadParamsSchema },
  responses: { 204: { description: 'Deleted' }, ...commonErrors, ...conflictError },
});

const listMessages = createRoute({
  method: 'get',
  path: '/v1/threads/{threadId}/messages',
  tags,
  summary: "A thread's messages in seq order (paged by seq)",
  request: { params: threadParamsSchema, query: messagesQuerySchema },
  responses: { 200: json(pageOf(messageViewSchema, 'MessagePage'), 'A page of messages'), ...commonErrors },
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
    const { cursor, limit } = c.req.valid('query');
    const page = await c.var.service.stores.threadRuns.listThreads({
      ...(cursor ? { cursor } : {}),
      ...(limit ? { limit } : {}),
    });
    return c.json(page, 200);
  });

  app.openapi(getThread, async (c) => {
    const { threadId } = c.req.valid('param');
    c.var.ids.threadId = threadId;
    const thread = await c.var.service.stores.threadRuns.getThread(threadId);
    if (!thread) throw notFound(`thread ${threadId}`);
    return c.json(thread, 200);
  });

  app.openapi(deleteThread, async (c) => {
    const { threadId } = c.req.valid('param');
    c.var.ids.threadId = threadId;
    const { threadRuns, mailbox } = c.var.service.stores;
    if (!(await threadRuns.getThread(threadId))) throw notFound(`thread ${threadId}`);
    const busy = await mailbox.listDispatches(threadId, { status: ['queued', 'claimed'], limit: 1 });
    if (busy.items.length > 0) {
      throw new AwakenError('conflict', `thread ${threadId} has queued or executing work; cancel it first`);
    }
    await threadRuns.deleteThread(threadId);
    return c.body(null, 204);
  });

  app.openapi(listMessages, async (c) => {
    const { threadId } = c.req.valid('param');
    const { after = 0, limit = 100, visibility } = c.req.valid('query');
    c.var.ids.threadId = threadId;
    const { threadRuns } = c.var.service.stores;
    if (!(await threadRuns.getThread(threadId))) throw notFound(`thread ${threadId}`);
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
