import type { ThreadRunStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { nextCheckpoint, threadWithRun, userMessage } from './fixtures';

/** A caller's mistake is validation_failed before anything is written, never a store_failure. */
export function threadRunBadInputSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('bad input', () => {
    it('rejects metadata that is not an object, or an empty id, and creates nothing', async () => {
      const id = uniqueId('thread');
      for (const metadata of ['text', [1, 2], null, 5]) {
        await expectAwakenError(ctx.store.createThread({ id, metadata } as never), 'validation_failed');
      }
      await expectAwakenError(ctx.store.createThread({ id: '' }), 'validation_failed');
      expect(await ctx.store.getThread(id)).toBeNull();
      expect((await ctx.store.listThreads()).items).toEqual([]);
      await ctx.store.createThread({ id });
      for (const metadata of ['text', [1], null]) {
        await expectAwakenError(ctx.store.updateThreadMetadata(id, metadata as never), 'validation_failed');
      }
      expect((await ctx.store.getThread(id))?.metadata).toEqual({});
      expect((await ctx.store.listThreads()).items.map((thread) => thread.id)).toEqual([id]);
    });

    it('rejects an empty or non-string thread or run id on every read', async () => {
      for (const threadId of ['', 42, '\uD800']) {
        await expectAwakenError(ctx.store.getThread(threadId as never), 'validation_failed');
        await expectAwakenError(ctx.store.readMessages(threadId as never), 'validation_failed');
        await expectAwakenError(ctx.store.messageCount(threadId as never), 'validation_failed');
        await expectAwakenError(ctx.store.getThreadState(threadId as never), 'validation_failed');
        await expectAwakenError(ctx.store.listRuns(threadId as never), 'validation_failed');
        await expectAwakenError(ctx.store.deleteThread(threadId as never), 'validation_failed');
        await expectAwakenError(ctx.store.getRun(threadId as never), 'validation_failed');
      }
    });

    it('rejects message bounds that are not whole numbers >= 0', async () => {
      const { id } = await ctx.store.createThread({});
      for (const bound of [Number.NaN, 1.5, -1, 1e300, '1', Number.POSITIVE_INFINITY]) {
        await expectAwakenError(ctx.store.readMessages(id, { from: bound } as never), 'validation_failed');
        await expectAwakenError(ctx.store.readMessages(id, { to: bound } as never), 'validation_failed');
      }
      await expectAwakenError(
        ctx.store.readMessages(id, { visibility: 'public' } as never),
        'validation_failed',
      );
    });

    it('rejects an append without a valid expected length or messages, writing nothing', async () => {
      const { id } = await ctx.store.createThread({});
      const messages = [userMessage('a')];
      for (const input of [
        { messages },
        { expectedLength: -1, messages },
        { expectedLength: 0.5, messages },
        { expectedLength: '0', messages },
        { expectedLength: 0 },
        { expectedLength: 0, messages: 'a' },
        { expectedLength: 0, messages: [{ visibility: 'external', message: { role: 'robot' } }] },
      ]) {
        await expectAwakenError(ctx.store.appendMessages(id, input as never), 'validation_failed');
      }
      expect(await ctx.store.messageCount(id)).toBe(0);
    });

    it('rejects page limits and cursors a listing cannot take', async () => {
      const { threadId } = await threadWithRun(ctx.store);
      for (const limit of [0, -3, 1.5, Number.NaN]) {
        await expectAwakenError(ctx.store.listThreads({ limit }), 'validation_failed');
        await expectAwakenError(ctx.store.listRuns(threadId, { limit }), 'validation_failed');
      }
      for (const cursor of ['-5', '1.5', 'next', '']) {
        await expectAwakenError(ctx.store.listThreads({ cursor }), 'validation_failed');
        await expectAwakenError(ctx.store.listRuns(threadId, { cursor }), 'validation_failed');
      }
      await expectAwakenError(ctx.store.listRuns(threadId, { status: [] }), 'validation_failed');
      expect((await ctx.store.listRuns(threadId, { limit: 5_000 })).items).toHaveLength(1);
    });

    it('rejects a run record or checkpoint that breaks the schema, writing nothing', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      await expectAwakenError(
        ctx.store.createRun({ ...run, runId: uniqueId('run'), status: 'lost' } as never),
        'validation_failed',
      );
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', [userMessage('x')]);
      for (const broken of [
        { ...checkpoint, trigger: 'whenever' },
        { ...checkpoint, expectedMessageCount: undefined },
        { ...checkpoint, run: { ...checkpoint.run, steps: -1 } },
        { ...checkpoint, threadState: [1] },
      ]) {
        await expectAwakenError(ctx.store.commitCheckpoint(broken as never), 'validation_failed');
      }
      expect(await ctx.store.getRun(run.runId)).toEqual(run);
      expect(await ctx.store.messageCount(threadId)).toBe(0);
    });
  });
}
