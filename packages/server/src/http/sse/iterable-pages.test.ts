import type { AgentEvent } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { iterablePages } from './iterable-pages';

function delta(seq: number): AgentEvent {
  return { type: 'text_delta', runId: 'r', seq, at: 1, messageId: 'm', delta: 'x' } as AgentEvent;
}

/** A page source the test feeds by hand. */
function source() {
  const queue: AgentEvent[][] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  async function* pages(): AsyncGenerator<AgentEvent[]> {
    for (;;) {
      const next = queue.shift();
      if (next) yield next;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return {
    pages: pages(),
    push(page: AgentEvent[]) {
      queue.push(page);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
  };
}

describe('iterablePages: a followed run, one chunk per read', () => {
  it('hands out a burst whole, splits one larger than the limit, and keeps the rest in order', async () => {
    const feed = source();
    const pages = iterablePages(feed.pages);
    feed.push([delta(1), delta(2), delta(3), delta(4), delta(5)]);
    expect((await pages.read(2, 1_000)).events.map((event) => event.seq)).toEqual([1, 2]);
    expect((await pages.read(2, 1_000)).events.map((event) => event.seq)).toEqual([3, 4]);
    expect((await pages.read(10, 1_000)).events.map((event) => event.seq)).toEqual([5]);
    feed.push([delta(6), delta(7)]);
    expect((await pages.read(10, 1_000)).events.map((event) => event.seq)).toEqual([6, 7]);
  });

  it('answers an empty page after waitMs without losing the page still on its way', async () => {
    const feed = source();
    const pages = iterablePages(feed.pages);
    expect(await pages.read(10, 20)).toEqual({ events: [], ended: false });
    feed.push([delta(1)]);
    expect((await pages.read(10, 1_000)).events.map((event) => event.seq)).toEqual([1]);
    feed.end();
    expect(await pages.read(10, 1_000)).toEqual({ events: [], ended: true });
  });
});
