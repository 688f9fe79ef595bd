import type { RunStatus } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpMetrics } from '../http-metrics';
import type { HttpEnv, HttpAppOptions } from '../http-types';
import { idHeaders } from '../internal/id-headers';
import { submittedRunResponse } from '../internal/submitted-run-response';
import { runContextOf } from '../internal/run-context';
import { listRequestOf, pageView } from '../internal/paging';
import { requireRun, requireThread } from '../internal/require-resource';
import { toRunView } from '../internal/views';
import { apiRoutes } from '../schemas/api-routes';
import {
  conflictError,
  eventStream,
  json,
  jsonBody,
  runParamsSchema,
  threadParamsSchema,
} from '../schemas/common-schemas';
import { eventsQuerySchema, listRunsQuerySchema, startRunBodySchema } from '../schemas/request-schemas';
import { activeRunViewSchema, pageOf, runViewSchema, submittedSchema } from '../schemas/resource-schemas';
import { eventCursor } from '../sse/event-cursor';
import { runEventStream } from '../sse/run-event-stream';
import { sseResponse } from '../sse/sse-response';

const route = apiRoutes(['Runs']);
const runEventsResponse = eventStream(
  'Server-sent events: `id:` is the event seq, `data:` the event as JSON',
);

const startRun = route.post('/v1/runs', {
  summary:
    'Start a run and stream its events until it waits or ends (or, with `stream: false`, return at once)',
  request: { body: jsonBody(startRunBodySchema) },
  responses: {
    200: runEventsResponse,
    202: json(submittedSchema, 'Accepted (with `stream: false`)'),
    ...conflictError,
  },
});

const getRun = route.get('/v1/runs/{runId}', {
  summary: 'Get a run',
  request: { params: runParamsSchema },
  responses: { 200: json(runViewSchema, 'The run') },
});

const runEvents = route.get('/v1/runs/{runId}/events', {
  summary:
    "A run's events from its event log, after `Last-Event-ID` (or `?after=`), until it waits or ends; served by any process",
  request: {
    params: runParamsSchema,
    query: eventsQuerySchema,
    headers: z.object({ 'last-event-id': z.string().max(32).optional() }),
  },
  responses: { 200: runEventsResponse },
});

const listRuns = route.get('/v1/threads/{threadId}/runs', {
  summary: 'Runs of a thread, newest first, optionally by status (`?status=waiting,done`)',
  request: { params: threadParamsSchema, query: listRunsQuerySchema },
  responses: { 200: json(pageOf(runViewSchema, 'RunPage'), 'A page of runs') },
});

const activeRun = route.get('/v1/threads/{threadId}/active-run', {
  summary: "The thread's executing run, or its waiting run with the tickets it waits on",
  request: { params: threadParamsSchema },
  responses: { 200: json(activeRunViewSchema, 'The active run, or null') },
});

export function registerRunRoutes(
  app: OpenAPIHono<HttpEnv>,
  deps: { metrics: HttpMetrics; options: Required<Pick<HttpAppOptions, 'keepAliveMs'>> },
): void {
  app.openapi(startRun, async (c) => {
    const body = c.req.valid('json');
    const run = await c.var.service.submit({
      agentId: body.agentId,
      input: body.input,
      mode: 'foreground',
      ifBusy: body.ifBusy ?? 'conflict',
      origin: 'user',
      ...(body.threadId ? { threadId: body.threadId } : {}),
      ...(body.runId ? { runId: body.runId } : {}),
      ...(body.priority === undefined ? {} : { priority: body.priority }),
      context: runContextOf(c, body.context),
      ...(body.tools ? { tools: body.tools } : {}),
    });
    return submittedRunResponse(c, {
      run,
      stream: body.stream,
      metrics: deps.metrics,
      keepAliveMs: deps.options.keepAliveMs,
    }) as never;
  });

  app.openapi(getRun, async (c) => {
    const record = await requireRun(c, c.req.valid('param').runId);
    const agentDrift = c.var.service.agentDrift?.(record);
    return c.json({ ...toRunView(record), ...(agentDrift ? { agentDrift } : {}) }, 200);
  });

  app.openapi(runEvents, async (c) => {
    const { runId } = c.req.valid('param');
    c.var.ids.runId = runId; // a bad cursor is logged with the run it named
    const afterSeq = eventCursor(c.req.header('last-event-id'), c.req.valid('query').after);
    const record = await requireRun(c, runId);
    const events = runEventStream({
      service: c.var.service,
      runId,
      afterSeq,
      keepAliveMs: deps.options.keepAliveMs,
      signal: c.req.raw.signal,
      metrics: deps.metrics,
      log: c.var.log,
    });
    return sseResponse(events, idHeaders({ runId, threadId: record.threadId })) as never;
  });

  app.openapi(listRuns, async (c) => {
    const { threadId } = c.req.valid('param');
    await requireThread(c, threadId);
    const request = listRequestOf<RunStatus>(c.req.valid('query'));
    const page = await c.var.service.stores.threadRuns.listRuns(threadId, request);
    return c.json(pageView(page, toRunView), 200);
  });

  app.openapi(activeRun, async (c) => {
    const { threadId } = c.req.valid('param');
    c.var.ids.threadId = threadId;
    const view = await c.var.service.commands.getActiveRun(threadId);
    if (!view) return c.json({ activeRun: null }, 200);
    c.var.ids.runId = view.runId;
    return c.json(
      {
        activeRun: {
          kind: view.kind,
          runId: view.runId,
          threadId: view.threadId,
          run: toRunView(view.record),
          tickets: view.tickets,
        },
      },
      200,
    );
  });
}
