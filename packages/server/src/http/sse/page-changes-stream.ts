import { createHash } from 'node:crypto';
import { formatSseFrame, toSseStream } from '@awaken/contract';
import { DEFAULT_PAGE_BYTES, PageSize } from './page-size';

/** A page of a listing as the API answers it. */
export interface ListedPage<T> {
  items: T[];
  nextCursor?: string;
}

/** Reads the listing's page at the query's cursor, with at most `limit` items. */
export type ReadPage<T> = (limit: number) => Promise<ListedPage<T>>;

/** One page made into the `data:` of a frame, with what tells a changed page from the same one. */
export interface FittedPage {
  /** The page's JSON: `{"items":[…],"nextCursor":…}`. */
  data: string;
  /** A digest of the items (not the cursor): equal digests, the same page. */
  digest: string;
  items: number;
}

export interface FitOptions {
  /** The page size the client asked for. */
  limit: number;
  /** The frame budget: the JSON of a page's items is at most this many bytes (or one item). */
  maxBytes: number;
  /** How many items the first read asks for (default: the smaller of `limit` and 50). */
  first?: number;
}

/** The first read's default size: a page of the API's default size. */
const FIRST_READ = 50;

/**
 * Reads a page that fits the frame budget: at most `limit` items and about `maxBytes` of their
 * JSON (at least one item). It reads `first` items, then — when all fit and the listing has more —
 * once as many as the first ones' size says fit, and — when the items read come to more than the
 * budget — again with only as many as fit, so that the page's `nextCursor` is the listing's own
 * cursor after the last item sent (the rest is one `GET ?cursor=` away). A page never costs much
 * more than `maxBytes`, however many items were asked for and however large each is; no read asks
 * for many more items than fit.
 */
export async function fittedPage<T>(read: ReadPage<T>, options: FitOptions): Promise<FittedPage> {
  const { limit, maxBytes } = options;
  let ask = Math.max(1, Math.min(limit, options.first ?? FIRST_READ));
  let grown = false;
  for (;;) {
    const page = await read(ask);
    const parts = page.items.map((item) => JSON.stringify(item));
    let bytes = 2;
    let fit = 0;
    for (const part of parts) {
      const next = bytes + Buffer.byteLength(part) + 1;
      if (fit > 0 && next > maxBytes) break;
      bytes = next;
      fit += 1;
    }
    if (fit < parts.length) {
      // too large: read again only what fits (fewer each time, so this ends)
      grown = true;
      ask = fit;
      continue;
    }
    if (!grown && page.nextCursor && ask < limit && fit > 0) {
      // all fit and there is more: read once as many as fit, judged by these items' size
      grown = true;
      const more = Math.min(limit, Math.floor((maxBytes * fit) / bytes));
      if (more > ask) {
        ask = more;
        continue;
      }
    }
    const items = `[${parts.join(',')}]`;
    const cursor = page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : '';
    return {
      data: `{"items":${items}${cursor}}`,
      digest: createHash('sha256').update(items).digest('base64'),
      items: parts.length,
    };
  }
}

export interface PageChangesStreamOptions<T> {
  /** The page read before the stream started (a bad cursor is refused before the 200). */
  first: FittedPage;
  read: ReadPage<T>;
  /** The page size the client asked for. */
  limit: number;
  /** The SSE event name of each frame. */
  event: string;
  /** The greeting comment written first. */
  comment: string;
  /** How often the page is read again while the client reads. */
  checkMs: number;
  keepAliveMs: number;
  signal: AbortSignal;
  /** The frame budget (default 64 KiB, the run event streams' page). */
  maxBytes?: number;
}

/**
 * A live view of a listing's first page over SSE: the page at once, then again each time a re-read
 * every `checkMs` differs. Bounded like the run event streams: a frame holds at most `limit` items
 * and about `maxBytes` of them ({@link fittedPage}: a short page with `nextCursor` past the budget),
 * later reads ask for no more items than fit the budget ({@link PageSize}), and nothing is read
 * ahead — the page is read again only once the client's socket took the last frame — so a client
 * that stops reading costs one frame in its socket's buffer and no store reads at all.
 */
export function pageChangesStream<T>(options: PageChangesStreamOptions<T>): ReadableStream<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_PAGE_BYTES;
  async function* frames(cancelled: AbortSignal): AsyncGenerator<string> {
    const signal = AbortSignal.any([cancelled, options.signal]);
    const pages = new PageSize({ maxEvents: options.limit, maxBytes });
    let page = options.first;
    let sent = '';
    while (!signal.aborted) {
      pages.observe(page.items, page.data.length);
      if (page.digest !== sent) {
        sent = page.digest;
        yield formatSseFrame({ event: options.event, data: page.data });
      }
      await delay(options.checkMs, signal);
      if (signal.aborted) return;
      page = await fittedPage(options.read, { limit: options.limit, maxBytes, first: pages.limit });
    }
  }
  return toSseStream(frames, {
    head: formatSseFrame({ retry: 2000, comment: options.comment }),
    encode: (frame) => frame,
    keepAliveMs: options.keepAliveMs,
    readAhead: false,
  });
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
