import { type RunRecord, type RunStatus, formatSseFrame, toSseStream } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { pageRequestOf } from '../internal/paging';
import { apiRoutes } from '../schemas/api-routes';
import { eventStream, json, pageQuerySchema } from '../schemas/common-schemas';
import { pageOf, ticketViewSchema } from '../schemas/resource-schemas';
import { sseResponse } from '../sse/sse-response';

/** One waiting run of the inbox: who waits, since when, and the tickets a human may answer. */
const inboxItemSchema = z
  .object({
    runId: z.string(),
    threadId: z.string(),
    agentId: z.string(),
    /** When the run last changed (it has waited since then). */
    waitingSince: z.number(),
    reason: z.enum(['tool_call_suspended', 'user_input']).optional(),
    message: z.string().optional(),
    tickets: z.array(ticketViewSchema),
  })
  .openapi('InboxItem');
const inboxPage = pageOf(inboxItemSchema, 'InboxPage');
type InboxItem = z.infer<typeof inboxItemSchema>;

const inboxQuerySchema = pageQuerySchema.extend({ agentId: z.string().max(256).optional() });

const inbox = apiRoutes(['Inbox']);

const listInbox = inbox.get('/v1/inbox', {
  summary: 'Every waiting run of the tenant (across threads), newest first, with the tickets it waits on',
  request: { query: inboxQuerySchema },
  responses: { 200: json(inboxPage, 'A page of waiting runs') },
});

const inboxEvents = inbox.get('/v1/inbox/events', {
  summary:
    'Server-sent events: `event: inbox` with the first page of the inbox at once and whenever it changes',
  request: { query: inboxQuerySchema },
  responses: { 200: eventStream('SSE') },
});

function toInboxItem(run: RunRecord): InboxItem {
  return {
    runId: run.runId,
    threadId: run.threadId,
    agentId: run.agentId,
    waitingSince: run.updatedAt,
    ...(run.waiting?.reason ? { reason: run.waiting.reason } : {}),
    ...(run.waiting?.message ? { message: run.waiting.message } : {}),
    tickets: run.waiting?.tickets ?? [],
  };
}

type Query = { cursor?: string | undefined; limit?: number | undefined; agentId?: string | undefined };

/** One page of runs of `status`; the agent filter applies to the page read (a page may come back short). */
async function runsOf(c: { var: HttpEnv['Variables'] }, status: RunStatus, query: Query) {
  const page = await c.var.service.stores.threadRuns.listRunsByStatus(status, pageRequestOf(query));
  const items = query.agentId ? page.items.filter((run) => run.agentId === query.agentId) : page.items;
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

export interface InboxRouteOptions {
  keepAliveMs: number;
  /** How often an open inbox stream re-reads the first page of the waiting index. Default 1000 ms. */
  checkMs?: number;
}

/**
 * The console's tenant-wide views: the approval inbox (every waiting run and its tickets, read from
 * the store's status index, never by scanning runs) and its live stream. The runs list is
 * `run-list-routes.ts`.
 * The inbox stream re-reads one indexed page per `checkMs` on the server (whichever process moved
 * a run) and sends it only when it changed; clients never poll.
 */
export function registerInboxRoutes(app: OpenAPIHono<HttpEnv>, options: InboxRouteOptions): void {
  app.openapi(listInbox, async (c) => {
    const page = await runsOf(c, 'waiting', c.req.valid('query'));
    return c.json({ ...page, items: page.items.map(toInboxItem) }, 200);
  });

  app.openapi(inboxEvents, async (c) => {
    const query = c.req.valid('query');
    // read the first page before the stream starts: a bad query (a cursor no listing returned) is
    // a 422 through the error handler, not a stream that fails after its 200
    const first = await runsOf(c, 'waiting', query);
    const changes = (cancelled: AbortSignal) =>
      inboxChanges(first, () => runsOf(c, 'waiting', query), {
        checkMs: options.checkMs ?? 1000,
        signal: AbortSignal.any([cancelled, c.req.raw.signal]),
      });
    const body = toSseStream(changes, {
      head: formatSseFrame({ retry: 2000, comment: 'awaken inbox stream' }),
      encode: (page) => formatSseFrame({ event: 'inbox', data: JSON.stringify(page) }),
      keepAliveMs: options.keepAliveMs,
    });
    return sseResponse(body) as never;
  });
}

type InboxPage = { items: InboxItem[]; nextCursor?: string };

/** The first page of the inbox at once, then again each time a re-read every `checkMs` differs. */
async function* inboxChanges(
  first: Awaited<ReturnType<typeof runsOf>>,
  read: () => ReturnType<typeof runsOf>,
  options: { checkMs: number; signal: AbortSignal },
): AsyncGenerator<InboxPage> {
  let last = '';
  let page = first;
  while (!options.signal.aborted) {
    const items = page.items.map(toInboxItem);
    const key = JSON.stringify(items);
    if (key !== last) {
      last = key;
      yield { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }
    await delay(options.checkMs, options.signal);
    if (options.signal.aborted) return;
    page = await read();
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
