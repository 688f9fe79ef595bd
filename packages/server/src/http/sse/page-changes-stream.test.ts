import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ListedPage, fittedPage, pageChangesStream } from './page-changes-stream';

interface Item {
  id: number;
  text: string;
}

/** A listing of `count` items of about `bytes` each; its cursor is the index of the next item. */
function listing(count: number, bytes: number) {
  const items: Item[] = Array.from({ length: count }, (_, id) => ({ id, text: 'x'.repeat(bytes) }));
  const asked: number[] = [];
  return {
    items,
    asked,
    async read(limit: number): Promise<ListedPage<Item>> {
      asked.push(limit);
      const page = items.slice(0, limit);
      return { items: page, ...(items.length > limit ? { nextCursor: String(limit) } : {}) };
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('fittedPage', () => {
  it('sends a page larger than the budget short, with the cursor of the listing after its last item', async () => {
    const list = listing(1_000, 700);
    const page = await fittedPage(list.read, { limit: 1_000, maxBytes: 64 * 1024 });
    const data = JSON.parse(page.data) as ListedPage<Item>;
    expect(JSON.stringify(data.items).length).toBeLessThanOrEqual(64 * 1024);
    expect(data.items.length).toBeGreaterThan(80);
    expect(data.items.length).toBeLessThan(100);
    expect(data.items.map((item) => item.id)).toEqual(data.items.map((_, index) => index));
    expect(data.nextCursor).toBe(String(data.items.length));
    // never a read of the thousand items asked for: 50, then as many as fit
    expect(Math.max(...list.asked)).toBeLessThan(100);
  });

  it('sends a listing that fits whole in one read, and an item larger than the budget alone', async () => {
    const small = listing(10, 100);
    const whole = await fittedPage(small.read, { limit: 1_000, maxBytes: 64 * 1024 });
    expect(JSON.parse(whole.data)).toEqual({ items: small.items });
    expect(small.asked).toEqual([50]);

    const huge = listing(3, 100_000);
    const one = JSON.parse((await fittedPage(huge.read, { limit: 10, maxBytes: 64 * 1024 })).data);
    expect(one.items.map((item: Item) => item.id)).toEqual([0]);
    expect(one.nextCursor).toBe('1');
  });

  it('tells the same items by the same digest, whatever the cursor', async () => {
    const list = listing(3, 10);
    const first = await fittedPage(list.read, { limit: 3, maxBytes: 1_000 });
    expect((await fittedPage(list.read, { limit: 3, maxBytes: 1_000 })).digest).toBe(first.digest);
    list.items[1] = { id: 1, text: 'changed' };
    expect((await fittedPage(list.read, { limit: 3, maxBytes: 1_000 })).digest).not.toBe(first.digest);
  });
});

describe('pageChangesStream', () => {
  it('reads the listing again only while the client reads, and sends a page only when it changed', async () => {
    vi.useFakeTimers();
    const list = listing(3, 10);
    const first = await fittedPage(list.read, { limit: 3, maxBytes: 1_000 });
    const reader = pageChangesStream({
      first,
      read: list.read,
      limit: 3,
      event: 'page',
      comment: 'hello',
      checkMs: 100,
      keepAliveMs: 1_000,
      signal: new AbortController().signal,
    }).getReader();
    const decoder = new TextDecoder();
    const text = async () => decoder.decode((await reader.read()).value);
    expect(await text()).toContain(': hello');
    expect(await text()).toBe(`event: page\ndata: ${first.data}\n\n`);
    const reads = list.asked.length;
    // the client does not read: ten seconds pass without a read of the listing
    await vi.advanceTimersByTimeAsync(10_000);
    expect(list.asked.length).toBe(reads);
    // it reads again: the listing is read every 100 ms, the unchanged page is not sent again (a
    // keep-alive is), a changed one is
    const next = reader.read();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(list.asked.length).toBeGreaterThanOrEqual(reads + 9);
    expect(decoder.decode((await next).value)).toBe(': keep-alive\n\n');
    list.items[0] = { id: 0, text: 'changed' };
    const changed = reader.read();
    await vi.advanceTimersByTimeAsync(100);
    expect(decoder.decode((await changed).value)).toContain('"text":"changed"');
    await reader.cancel();
  });
});
