import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpMetrics } from '../http-metrics';
import type { HttpEnv } from '../http-types';
import { idHeaders } from '../internal/id-headers';
import { requireThread } from '../internal/require-resource';
import { apiRoutes } from '../schemas/api-routes';
import { eventStream, threadParamsSchema } from '../schemas/common-schemas';
import { sseResponse } from '../sse/sse-response';
import { type ThreadEventId, threadEventCursor } from '../sse/thread-event-id';
import type { MailboxService } from '../../types';
import { cursorPastRun, runsAfter, threadEventStream, unknownCursorRun } from '../sse/thread-event-stream';

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
        description:
          'resume after this thread event id, `<runId>:<seq>`, or `now`: only what happens from now on (the `Last-Event-ID` header wins)',
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

/** The position after the thread's last event so far: its newest run's last seq (none: no run yet). */
async function nowOf(
  service: MailboxService,
  latestRunId: string | undefined,
): Promise<ThreadEventId | undefined> {
  if (latestRunId === undefined) return undefined;
  return { runId: latestRunId, seq: await service.stores.eventLog.lastSeq(latestRunId) };
}

/**
 * `GET /v1/threads/:threadId/events`: the thread's event stream ({@link threadEventStream}). An
 * `?after=now` starts after the thread's last event so far (what a page that just loaded the thread
 * wants). An unknown thread is 404; a cursor (`Last-Event-ID`, else `?after=`) that is not
 * `<runId>:<seq>`, names a run of another thread or an event past its run's last one is 422
 * `validation_failed` naming where it came from — all before the stream starts.
 */
export function registerThreadEventRoutes(
  app: OpenAPIHono<HttpEnv>,
  deps: { metrics: HttpMetrics; keepAliveMs: number },
): void {
  app.openapi(threadEvents, async (c) => {
    const { threadId } = c.req.valid('param');
    const thread = await requireThread(c, threadId);
    const lastEventId = c.req.header('last-event-id');
    const query = c.req.valid('query').after;
    const after =
      !lastEventId?.trim() && query?.trim() === 'now'
        ? await nowOf(c.var.service, thread.latestRunId)
        : threadEventCursor(lastEventId, query);
    const field = lastEventId?.trim() ? 'Last-Event-ID' : 'after';
    const runs = await runsAfter(c.var.service, threadId, after?.runId);
    if (!runs) throw unknownCursorRun(threadId, after?.runId ?? '', field);
    if (after && after.seq > 0) {
      // a log that is gone (expired) says 0: nothing to check the position against
      const lastSeq = await c.var.service.stores.eventLog.lastSeq(after.runId);
      if (lastSeq > 0 && after.seq > lastSeq) throw cursorPastRun(after.runId, after.seq, lastSeq, field);
    }
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
