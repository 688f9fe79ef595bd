import type { Context, MiddlewareHandler } from 'hono';
import { errorBody } from '../error-table';
import type { HttpEnv } from '../http-types';
import type { StreamSlots } from '../sse/stream-slots';

/** What a client at the cap is told to wait before it tries again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Caps the event streams a tenant has open (`maxStreamsPerTenant`) on the routes that answer with
 * one: beyond the cap, 429 `too_many_streams` with `Retry-After`, before the route runs (so a
 * refused `POST /v1/runs` starts nothing). A slot is held until the stream ends or its client goes
 * away; a response that is not a stream (an error, `stream: false`) gives it back at once.
 * `streams(c)` says whether the request asks for a stream (default: every request to the route).
 */
export function capStreams(
  slots: StreamSlots,
  streams: (c: Context<HttpEnv>) => Promise<boolean> = async () => true,
): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (!(await streams(c))) return next();
    const release = slots.acquire(c.var.caller.tenant);
    if (!release) return tooManyStreams(c);
    try {
      await next();
    } catch (error) {
      release();
      throw error;
    }
    const body = c.res.body;
    if (c.req.method === 'HEAD') {
      // Hono answers a HEAD with the GET route's headers and drops its body without cancelling it,
      // so the body would never end: nothing streams, the slot and the stream's reader go back now
      release();
      await body?.cancel().catch(() => undefined);
      return;
    }
    if (!body || !isEventStream(c.res)) {
      release();
      return;
    }
    const counted = releasingOnEnd(body, release);
    countedBodies.add(counted);
    c.res = new Response(counted, c.res);
  };
}

/**
 * The net under {@link capStreams}, on every `/v1` route: an event stream that no `capStreams`
 * counted before its route ran (a route left off the list, a request the list's test did not
 * recognise) takes a slot when it is answered — refused with the same 429 at the cap (its body
 * cancelled), given back when it ends — so every SSE response counts, whatever the request's
 * headers. Routes that start something (a run) belong on the list, where a refusal comes first.
 */
export function countEveryStream(slots: StreamSlots): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    const body = c.res.body;
    if (!body || c.req.method === 'HEAD' || !isEventStream(c.res) || countedBodies.has(body)) return;
    const release = slots.acquire(c.var.caller.tenant);
    if (!release) {
      await body.cancel().catch(() => undefined);
      // the stream's own headers (its ids, no-cache) do not belong on the refusal: a new response
      c.res = undefined;
      c.res = new Response(JSON.stringify(TOO_MANY_STREAMS), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_SECONDS) },
      });
      return;
    }
    const counted = releasingOnEnd(body, release);
    countedBodies.add(counted);
    c.res = new Response(counted, c.res);
  };
}

/** The bodies a slot is held for. */
const countedBodies = new WeakSet<ReadableStream<Uint8Array>>();

function isEventStream(response: Response): boolean {
  return (
    response.status === 200 &&
    (response.headers.get('content-type')?.startsWith('text/event-stream') ?? false)
  );
}

const TOO_MANY_STREAMS = errorBody(
  'too_many_streams',
  'this tenant has too many event streams open; retry later',
  { retryAfterSeconds: RETRY_AFTER_SECONDS },
);

function tooManyStreams(c: Context<HttpEnv>): Response {
  c.header('retry-after', String(RETRY_AFTER_SECONDS));
  return c.json(TOO_MANY_STREAMS, 429);
}

/** A body that gives the slot back when it ends, fails or is cancelled; it reads only when read. */
function releasingOnEnd(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    },
    // no read ahead: the stream's own backpressure (one page per socket drain) is kept
    { highWaterMark: 0 },
  );
}

/**
 * `POST /v1/runs` streams unless its body says `stream: false`. The parsed body is cached for the
 * route's validator; a body that is not JSON is left to the route to refuse.
 */
export async function startsStream(c: Context<HttpEnv>): Promise<boolean> {
  if (c.req.method !== 'POST') return false;
  try {
    const body = (await c.req.json()) as { stream?: unknown } | null;
    return body?.stream !== false;
  } catch {
    return false;
  }
}
