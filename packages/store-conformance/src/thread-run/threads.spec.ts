import { type ThreadRunStore, threadSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { newRunRecord, userMessage } from './fixtures';

export function threadsSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('threads', () => {
    it('creates a thread with the given id and metadata and reads it back', async () => {
      const id = uniqueId('thread');
      const thread = await ctx.store.createThread({ id, metadata: { title: 'Trip', tags: ['a'] } });
      expectValid(threadSchema, thread);
      expect(thread).toMatchObject({ id, metadata: { title: 'Trip', tags: ['a'] } });
      expect(thread.activeRunId).toBeUndefined();
      expect(expectValid(threadSchema, await ctx.store.getThread(id))).toEqual(thread);
    });

    it('generates an id and empty metadata when none are given', async () => {
      const thread = await ctx.store.createThread({});
      expect(thread.id).toEqual(expect.any(String));
      expect(thread.metadata).toEqual({});
      expect(await ctx.store.getThread(thread.id)).toEqual(thread);
    });

    it('rejects creating an existing thread with conflict', async () => {
      const id = uniqueId('thread');
      await ctx.store.createThread({ id, metadata: { v: 1 } });
      await expectAwakenError(ctx.store.createThread({ id, metadata: { v: 2 } }), 'conflict');
      expect((await ctx.store.getThread(id))?.metadata).toEqual({ v: 1 });
    });

    it('returns null for an unknown thread and rejects writes to it with not_found', async () => {
      const id = uniqueId('missing');
      expect(await ctx.store.getThread(id)).toBeNull();
      await expectAwakenError(ctx.store.updateThreadMetadata(id, {}), 'not_found');
      await expectAwakenError(ctx.store.appendMessages(id, { expectedLength: 0, messages: [] }), 'not_found');
      await expectAwakenError(ctx.store.createRun(newRunRecord(id)), 'not_found');
    });

    it('replaces the metadata', async () => {
      const thread = await ctx.store.createThread({ metadata: { a: 1, b: 2 } });
      const updated = await ctx.store.updateThreadMetadata(thread.id, { c: 3 });
      expect(updated.metadata).toEqual({ c: 3 });
      expect((await ctx.store.getThread(thread.id))?.metadata).toEqual({ c: 3 });
    });

    it('pages through every thread exactly once', async () => {
      const ids = new Set<string>();
      for (let index = 0; index < 7; index += 1) ids.add((await ctx.store.createThread({})).id);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await ctx.store.listThreads({ limit: 3, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(3);
        for (const thread of page.items) expectValid(threadSchema, thread);
        seen.push(...page.items.map((thread) => thread.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect(seen.filter((id) => ids.has(id)).sort()).toEqual([...ids].sort());
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('deletes a thread with its messages and runs', async () => {
      const thread = await ctx.store.createThread({});
      await ctx.store.appendMessages(thread.id, { expectedLength: 0, messages: [userMessage('hi')] });
      const run = await ctx.store.createRun(newRunRecord(thread.id));
      expect(await ctx.store.deleteThread(thread.id)).toBe(true);
      expect(await ctx.store.getThread(thread.id)).toBeNull();
      expect(await ctx.store.getRun(run.runId)).toBeNull();
      expect(await ctx.store.readMessages(thread.id)).toEqual([]);
      expect(await ctx.store.messageCount(thread.id)).toBe(0);
      expect(await ctx.store.deleteThread(thread.id)).toBe(false);
    });

    it('starts with empty thread state', async () => {
      const thread = await ctx.store.createThread({});
      expect(await ctx.store.getThreadState(thread.id)).toEqual({});
    });
  });
}
