import { SSE_KEEP_ALIVE } from './format-sse-frame';

/**
 * What an SSE stream writes: an async iterable, or a function making one from a signal that aborts
 * when the stream is cancelled (so a source blocked in a read — a store tail, a timer — stops at once,
 * not at its next item).
 */
export type SseSource<T> = AsyncIterable<T> | ((cancelled: AbortSignal) => AsyncIterable<T>);

export interface SseStreamOptions<T> {
  /**
   * The SSE text of one item: one or more frames (`formatSseFrame`), written in one chunk. `''`
   * writes nothing and the stream reads the next item at once.
   */
  encode: (item: T) => string;
  /** Written first, before anything is read (a greeting: a `retry:` and a comment). */
  head?: string;
  /** Written after the last item when the source ends (not when it fails or the stream is cancelled). */
  tail?: string;
  /** A keep-alive comment after this many milliseconds of silence while a reader waits (none by default). */
  keepAliveMs?: number;
  /**
   * `false`: the source is read only while a reader waits for a chunk — nothing is read ahead, so a
   * client that stops reading stops the source too (for a source that works to make each item, e.g.
   * one that re-reads a store on a timer). Default `true`: one item is read ahead.
   */
  readAhead?: boolean;
}

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(SSE_KEEP_ALIVE);

/**
 * A web-standard `ReadableStream` of UTF-8 SSE text over an async iterable. Guarantees:
 * - pull-driven: the source is read only when the stream's reader wants more, one item per chunk
 *   (plus the one item a `ReadableStream` reads ahead, unless `readAhead: false`), so a client that
 *   stops reading holds one item's text — the source's own paging bounds what an item is;
 * - at most one `next()` of the source is pending at any time, also across keep-alives;
 * - `keepAliveMs`: when the stream has waited that long for the source since its last write,
 *   `: keep-alive` is written; at most one is queued while nobody reads;
 * - the text is exactly `head`, each item's `encode`, then `tail` — no other bytes but keep-alives;
 * - a source or `encode` failure errors the stream (write an error frame in the source to end it
 *   cleanly instead);
 * - cancelling the stream (the client went away) aborts the source's signal and returns the source
 *   iterator, so its `finally` runs and it stops reading.
 */
export function toSseStream<T>(
  source: SseSource<T>,
  options: SseStreamOptions<T>,
): ReadableStream<Uint8Array> {
  const { keepAliveMs } = options;
  // how many chunks the stream queues before it stops reading the source
  const highWaterMark = options.readAhead === false ? 0 : 1;
  if (keepAliveMs !== undefined && !(keepAliveMs > 0))
    throw new RangeError(`keepAliveMs must be a positive number, got ${keepAliveMs}`);
  const cancelled = new AbortController();
  const iterable = typeof source === 'function' ? source(cancelled.signal) : source;
  const iterator = iterable[Symbol.asyncIterator]();
  let ended = false;
  // One timer per stream, not one per item: it fires at most every keepAliveMs and writes only when
  // the stream has been waiting on the source that long.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waitingSince: number | undefined;

  function keepAlive(controller: ReadableStreamDefaultController<Uint8Array>, ms: number): void {
    timer = setTimeout(() => {
      timer = undefined;
      if (ended || waitingSince === undefined || keepAliveMs === undefined) return;
      const quiet = Date.now() - waitingSince;
      if (quiet < keepAliveMs) return keepAlive(controller, keepAliveMs - quiet);
      // only into an empty queue: at most one keep-alive waits for a reader that does not read
      if ((controller.desiredSize ?? 0) >= highWaterMark) {
        controller.enqueue(KEEP_ALIVE);
        waitingSince = Date.now();
      }
      keepAlive(controller, keepAliveMs);
    }, ms);
  }

  function end(): void {
    ended = true;
    clearTimeout(timer);
  }

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (options.head) controller.enqueue(encoder.encode(options.head));
      },
      async pull(controller) {
        try {
          for (;;) {
            if (keepAliveMs !== undefined) {
              waitingSince = Date.now();
              if (timer === undefined) keepAlive(controller, keepAliveMs);
            }
            const next = await iterator.next();
            waitingSince = undefined;
            if (ended) return;
            if (next.done) {
              end();
              if (options.tail) controller.enqueue(encoder.encode(options.tail));
              return controller.close();
            }
            const text = options.encode(next.value);
            if (text !== '') return controller.enqueue(encoder.encode(text));
          }
        } catch (error) {
          if (ended) return;
          end();
          void Promise.resolve(iterator.return?.()).catch(() => undefined);
          controller.error(error);
        }
      },
      async cancel() {
        end();
        cancelled.abort();
        await iterator.return?.();
      },
    },
    { highWaterMark },
  );
}
