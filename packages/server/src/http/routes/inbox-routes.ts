import { DEFAULT_PAGE_LIMIT, type RunRecord, type RunStatus } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { pageRequestOf } from '../internal/paging';
import { apiRoutes } from '../schemas/api-routes';
import { eventStream, json, pageQuerySchema } from '../schemas/common-schemas';
import { pageOf, ticketViewSchema } from '../schemas/resource-schemas';
import { DEFAULT_PAGE_BYTES } from '../sse/page-size';
import { fittedPage, pageChangesStream } from '../sse/page-changes-stream';
import { sseResponse } from '../sse/sse-response';

/**
 * The most an `event: inbox` frame holds: whole items up to about 64 KiB (at least one), like a page
 * of a run event stream; a first page larger than that is sent short, with `nextCursor`.
 */
export const INBOX_FRAME_BYTES = DEFAULT_PAGE_BYTES;

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
  summary:
    "Every waiting top-level run of the tenant (across threads), newest first, with the tickets it waits on (a sub-agent's question is its top-level run's nested ticket)",
  request: { query: inboxQuerySchema },
  responses: { 200: json(inboxPage, 'A page of waiting runs') },
});

const inboxEvents = inbox.get('/v1/inbox/events', {
  summary:
    'Server-sent events: `event: inbox` with the first page of the inbox at once and whenever it changes; ' +
    'a page holds at most about 64 KiB of items (a longer one is sent short, with `nextCursor`)',
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

/**
 * One page of runs of `status`; the agent filter applies to the page read (a page may come back
 * short). `topLevel` leaves out child runs (sub-agents): their questions are asked — and answered —
 * through the nested tickets of their top-level run, so the inbox lists each question once.
 */
async function runsOf(
  c: { var: HttpEnv['Variables'] },
  status: RunStatus,
  query: Query,
  options: { topLevel?: boolean } = {},
) {
  const page = await c.var.service.stores.threadRuns.listRunsByStatus(status, pageRequestOf(query));
  const items = page.items.filter(
    (run) =>
      (!query.agentId || run.agentId === query.agentId) &&
      (!options.topLevel || run.parentRunId === undefined),
  );
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
 * a run) and sends it only when it changed; clients never poll. It is bounded like a run event
 * stream ({@link pageChangesStream}): a frame of at most {@link INBOX_FRAME_BYTES}, re-read only once
 * the client's socket took the last one, so a client that stops reading costs one frame and no reads.
 */
export function registerInboxRoutes(app: OpenAPIHono<HttpEnv>, options: InboxRouteOptions): void {
  app.openapi(listInbox, async (c) => {
    const page = await runsOf(c, 'waiting', c.req.valid('query'), { topLevel: true });
    return c.json({ ...page, items: page.items.map(toInboxItem) }, 200);
  });

  app.openapi(inboxEvents, async (c) => {
    const query = c.req.valid('query');
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const read = async (pageLimit: number) => {
      const page = await runsOf(c, 'waiting', { ...query, limit: pageLimit }, { topLevel: true });
      return { ...page, items: page.items.map(toInboxItem) };
    };
    // read the first page before the stream starts: a bad query (a cursor no listing returned) is
    // a 422 through the error handler, not a stream that fails after its 200
    const first = await fittedPage(read, { limit, maxBytes: INBOX_FRAME_BYTES });
    const body = pageChangesStream({
      first,
      read,
      limit,
      event: 'inbox',
      comment: 'awaken inbox stream',
      checkMs: options.checkMs ?? 1000,
      keepAliveMs: options.keepAliveMs,
      signal: c.req.raw.signal,
      maxBytes: INBOX_FRAME_BYTES,
    });
    return sseResponse(body) as never;
  });
}
