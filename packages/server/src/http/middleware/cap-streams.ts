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
    if (!release) {
      c.header('retry-after', String(RETRY_AFTER_SECONDS));
      return c.json(
        errorBody('too_many_streams', 'this tenant has too many event streams open; retry later', {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        }),
        429,
      );
    }
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
    const isStream =
      c.res.status === 200 && c.res.headers.get('content-type')?.startsWith('text/event-stream');
    if (!body || !isStream) {
      release();
      return;
    }
    c.res = new Response(releasingOnEnd(body, release), c.res);
  };
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
