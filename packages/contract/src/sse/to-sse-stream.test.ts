import { afterEach, describe, expect, it, vi } from 'vitest';
import { SSE_KEEP_ALIVE, formatSseFrame } from './format-sse-frame';
import { toSseStream } from './to-sse-stream';

const decoder = new TextDecoder();
const frame = (value: unknown) => formatSseFrame({ data: JSON.stringify(value) });

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** A source the test feeds by hand, counting the reads it was asked for. */
function feed<T>() {
  const queue: T[] = [];
  let wake: (() => void) | undefined;
  const state = { nexts: 0, returned: false, signal: undefined as AbortSignal | undefined };
  const source = (signal: AbortSignal) => {
    state.signal = signal;
    return (async function* (): AsyncGenerator<T> {
      try {
        for (;;) {
          state.nexts += 1;
          while (queue.length === 0) {
            if (signal.aborted) return;
            await new Promise<void>((resolve) => {
              wake = resolve;
              signal.addEventListener('abort', () => resolve(), { once: true });
            });
          }
          yield queue.shift() as T;
        }
      } finally {
        state.returned = true;
      }
    })();
  };
  return {
    source,
    state,
    push(item: T) {
      queue.push(item);
      wake?.();
    },
  };
}

async function read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : decoder.decode(value);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('toSseStream', () => {
  it('writes the head, one chunk per item, then the tail, and skips an item that encodes to nothing', async () => {
    const body = toSseStream(from([1, 0, 2]), {
      encode: (item) => (item === 0 ? '' : frame({ item })),
      head: formatSseFrame({ retry: 1000, comment: 'hello' }),
      tail: 'data: [DONE]\n\n',
    });
    const reader = body.getReader();
    expect(await read(reader)).toBe('retry: 1000\n: hello\n\n');
    expect(await read(reader)).toBe('data: {"item":1}\n\n');
    expect(await read(reader)).toBe('data: {"item":2}\n\n');
    expect(await read(reader)).toBe('data: [DONE]\n\n');
    expect(await read(reader)).toBeUndefined();
  });

  it('sends a keep-alive after keepAliveMs of silence, keeps the one pending read, and sends none while nobody reads', async () => {
    vi.useFakeTimers();
    const source = feed<number>();
    const reader = toSseStream(source.source, {
      encode: (item) => frame(item),
      keepAliveMs: 1_000,
    }).getReader();
    const first = reader.read();
    await vi.advanceTimersByTimeAsync(999);
    source.push(1);
    expect(decoder.decode((await first).value)).toBe(frame(1));
    const quiet = reader.read();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(decoder.decode((await quiet).value)).toBe(SSE_KEEP_ALIVE);
    // nobody reads for ten intervals: at most the one chunk the stream reads ahead is queued
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await read(reader)).toBe(SSE_KEEP_ALIVE);
    // every keep-alive waited on the same pending read of the source
    expect(source.state.nexts).toBe(2);
    source.push(2);
    expect(await read(reader)).toBe(frame(2));
  });

  it('with readAhead: false reads the source only while a reader waits, and queues one keep-alive at most', async () => {
    vi.useFakeTimers();
    const source = feed<number>();
    source.push(1);
    source.push(2);
    const reader = toSseStream(source.source, {
      encode: (item) => frame(item),
      keepAliveMs: 1_000,
      readAhead: false,
    }).getReader();
    expect(await read(reader)).toBe(frame(1));
    // nobody reads for ten intervals: the next item is there, but the source is not asked for it
    await vi.advanceTimersByTimeAsync(10_000);
    expect(source.state.nexts).toBe(1);
    expect(await read(reader)).toBe(frame(2));
    expect(source.state.nexts).toBe(2);
    const quiet = reader.read();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(decoder.decode((await quiet).value)).toBe(SSE_KEEP_ALIVE);
    // the source still waits and nobody reads: one keep-alive is queued, not ten
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await read(reader)).toBe(SSE_KEEP_ALIVE);
    source.push(3);
    expect(await read(reader)).toBe(frame(3));
    expect(source.state.nexts).toBe(3);
  });

  it('on cancel aborts the source signal and returns the source iterator, even while it waits', async () => {
    const source = feed<number>();
    const reader = toSseStream(source.source, { encode: (item) => frame(item) }).getReader();
    source.push(1);
    expect(await read(reader)).toBe(frame(1));
    const waiting = reader.read();
    await reader.cancel();
    expect(source.state.signal?.aborted).toBe(true);
    expect(source.state.returned).toBe(true);
    expect((await waiting).done).toBe(true);
  });

  it('a plain iterable is returned on cancel too', async () => {
    let returned = false;
    const iterable: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: 1 }),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const reader = toSseStream(iterable, { encode: (item) => frame(item) }).getReader();
    expect(await read(reader)).toBe(frame(1));
    await reader.cancel();
    expect(returned).toBe(true);
  });

  it('errors the stream when the source fails, and returns the source when encode fails', async () => {
    const failing = toSseStream(
      (async function* () {
        yield 1;
        throw new Error('store down');
      })(),
      { encode: (item) => frame(item), tail: 'never' },
    ).getReader();
    expect(await read(failing)).toBe(frame(1));
    await expect(failing.read()).rejects.toThrow('store down');

    const source = feed<number>();
    source.push(1);
    const bad = toSseStream(source.source, {
      encode: () => {
        throw new Error('cannot encode');
      },
    }).getReader();
    await expect(bad.read()).rejects.toThrow('cannot encode');
    await vi.waitFor(() => expect(source.state.returned).toBe(true));
  });

  it('refuses a keepAliveMs that is not positive', () => {
    expect(() => toSseStream(from([]), { encode: String, keepAliveMs: 0 })).toThrow(RangeError);
  });
});
