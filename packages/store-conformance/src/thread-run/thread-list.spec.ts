import { THREAD_TITLE_MAX_CHARS, type ThreadRunStore, threadSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { assistantMessage, newRunRecord, nextCheckpoint, userMessage } from './fixtures';

/** What a console's thread list reads: threads newest (written last) first, each with its title. */
export function threadListSpec(ctx: SuiteContext<ThreadRunStore>): void {
  /** Every thread in the `newest` order, paged by `limit`. */
  async function newest(limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 500; pages += 1) {
      const page = await ctx.store.listThreads({ order: 'newest', limit, ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(limit);
      for (const thread of page.items) expectValid(threadSchema, thread);
      seen.push(...page.items.map((thread) => thread.id));
      cursor = page.nextCursor;
      if (cursor === undefined) return seen;
    }
    throw new Error('the newest order never ended');
  }
  const among = (ids: string[], of: string[]) => ids.filter((id) => of.includes(id));

  describe('thread list (newest first, titles)', () => {
    it('lists the thread written last first: created, appended to, given a run, checkpointed, its metadata replaced', async () => {
      const [a, b, c] = [
        await ctx.store.createThread({}),
        await ctx.store.createThread({}),
        await ctx.store.createThread({}),
      ].map((thread) => thread.id) as [string, string, string];
      const ids = [a, b, c];
      expect(among(await newest(50), ids)).toEqual([c, b, a]);
      await ctx.store.appendMessages(a, { expectedLength: 0, messages: [userMessage('hello')] });
      expect(among(await newest(50), ids)).toEqual([a, c, b]);
      const run = await ctx.store.createRun(newRunRecord(b));
      expect(among(await newest(50), ids)).toEqual([b, a, c]);
      await ctx.store.updateThreadMetadata(c, { pinned: true });
      expect(among(await newest(50), ids)).toEqual([c, b, a]);
      await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running'));
      expect(among(await newest(50), ids)).toEqual([b, c, a]);
      // the oldest order stays creation order
      const oldest = (await ctx.store.listThreads({ limit: 1000 })).items.map((thread) => thread.id);
      expect(among(oldest, ids)).toEqual([a, b, c]);
      await ctx.store.deleteThread(c);
      expect(among(await newest(50), ids)).toEqual([b, a]);
    });

    it('pages through the newest order, each thread once, also one at a time', async () => {
      const ids: string[] = [];
      for (let index = 0; index < 7; index += 1) ids.push((await ctx.store.createThread({})).id);
      await ctx.store.appendMessages(ids[2] as string, { expectedLength: 0, messages: [userMessage('x')] });
      for (const limit of [1, 3, 1000]) {
        const seen = await newest(limit);
        expect(new Set(seen).size).toBe(seen.length);
        expect(among(seen, ids)).toEqual([ids[2], ids[6], ids[5], ids[4], ids[3], ids[1], ids[0]]);
      }
    });

    it('titles a thread with its first external user message with text, once, shortened', async () => {
      const { id } = await ctx.store.createThread({});
      await ctx.store.appendMessages(id, {
        expectedLength: 0,
        messages: [
          { visibility: 'external', message: { role: 'system', content: 'be brief' } },
          userMessage('an internal note', { visibility: 'internal' }),
          userMessage('  \n '),
        ],
      });
      expect((await ctx.store.getThread(id))?.title).toBeUndefined();
      await ctx.store.appendMessages(id, {
        expectedLength: 3,
        messages: [userMessage('  delete\n\n /tmp/a.txt\tplease  '), userMessage('second')],
      });
      const thread = expectValid(threadSchema, await ctx.store.getThread(id));
      expect(thread.title).toBe('delete /tmp/a.txt please');
      await ctx.store.appendMessages(id, { expectedLength: 5, messages: [userMessage('a later question')] });
      expect((await ctx.store.getThread(id))?.title).toBe('delete /tmp/a.txt please');
      const listed = (await ctx.store.listThreads({ order: 'newest', limit: 1 })).items[0];
      expect(listed).toMatchObject({ id, title: 'delete /tmp/a.txt please' });
    });

    it('titles a thread from the checkpoint that commits its first user message, cut at whole code points', async () => {
      const { id } = await ctx.store.createThread({});
      const run = await ctx.store.createRun(newRunRecord(id));
      // 99 letters, then an emoji (one code point, two UTF-16 units) as the 100th, then more
      const long = `${'x'.repeat(THREAD_TITLE_MAX_CHARS - 1)}\u{1F600}${'é'.repeat(20)}`;
      const running = await ctx.store.commitCheckpoint({
        ...(await nextCheckpoint(ctx.store, run, 'running', [userMessage(long)])),
        trigger: 'user_message',
      });
      expect((await ctx.store.getThread(id))?.title).toBe(
        `${'x'.repeat(THREAD_TITLE_MAX_CHARS - 1)}\u{1F600}`,
      );
      await ctx.store.commitCheckpoint(
        await nextCheckpoint(ctx.store, running, 'done', [
          assistantMessage('done', run.runId, 1),
          userMessage('not the title'),
        ]),
      );
      expect((await ctx.store.getThread(id))?.title).toBe(
        `${'x'.repeat(THREAD_TITLE_MAX_CHARS - 1)}\u{1F600}`,
      );
    });

    itChecksInput(
      ctx,
      'rejects an order it does not know, and a cursor of no listing, naming the field',
      async () => {
        for (const order of ['sideways', 'NEWEST', 1, null]) {
          await expectAwakenError(ctx.store.listThreads({ order } as never), 'validation_failed');
          await expect(ctx.store.listThreads({ order } as never)).rejects.toThrow(/order/);
        }
        for (const cursor of ['-1', 'next', '1.5']) {
          await expectAwakenError(ctx.store.listThreads({ order: 'newest', cursor }), 'validation_failed');
        }
      },
    );
  });
}
