import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpMetrics } from '../http-metrics';
import type { HttpEnv } from '../http-types';
import { idHeaders } from '../internal/id-headers';
import { requireThread } from '../internal/require-resource';
import { apiRoutes } from '../schemas/api-routes';
import { eventStream, threadParamsSchema } from '../schemas/common-schemas';
import { sseResponse } from '../sse/sse-response';
import { threadEventCursor } from '../sse/thread-event-id';
import { runsAfter, threadEventStream, unknownCursorRun } from '../sse/thread-event-stream';

const route = apiRoutes(['Threads']);

/** Long enough for `<runId>:<seq>` with the longest client id. */
const MAX_EVENT_ID = 600;

const threadEvents = route.get('/v1/threads/{threadId}/events', {
  summary:
    'Every run of a thread in order — also runs the server starts later — after `Last-Event-ID` (or `?after=`), until the client goes away',
  request: {
    params: threadParamsSchema,
    query: z.object({
      after: z.string().max(MAX_EVENT_ID).optional().openapi({
        description: 'resume after this thread event id, `<runId>:<seq>` (the `Last-Event-ID` header wins)',
      }),
    }),
    headers: z.object({ 'last-event-id': z.string().max(MAX_EVENT_ID).optional() }),
  },
  responses: {
    200: eventStream(
      'Server-sent events: `id:` is `<runId>:<seq>` (runs in creation order, events by seq), `data:` the event as JSON',
    ),
  },
});

/**
 * `GET /v1/threads/:threadId/events`: the thread's event stream ({@link threadEventStream}). An
 * unknown thread is 404; a `Last-Event-ID` that is not `<runId>:<seq>` or names a run of another
 * thread is 400 `validation_failed` — both before the stream starts.
 */
export function registerThreadEventRoutes(
  app: OpenAPIHono<HttpEnv>,
  deps: { metrics: HttpMetrics; keepAliveMs: number },
): void {
  app.openapi(threadEvents, async (c) => {
    const { threadId } = c.req.valid('param');
    await requireThread(c, threadId);
    const after = threadEventCursor(c.req.header('last-event-id'), c.req.valid('query').after);
    const runs = await runsAfter(c.var.service, threadId, after?.runId);
    if (!runs) throw unknownCursorRun(threadId, after?.runId ?? '');
    const events = threadEventStream({
      service: c.var.service,
      threadId,
      ...(after ? { after } : {}),
      runs,
      keepAliveMs: deps.keepAliveMs,
      signal: c.req.raw.signal,
      metrics: deps.metrics,
      log: c.var.log,
    });
    return sseResponse(events, idHeaders({ threadId })) as never;
  });
}
