import { type ThreadRunStore, messageRecordSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { assistantMessage, userMessage } from './fixtures';

export function messageLogSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('message log', () => {
    it('assigns dense 1-based seq numbers across appends', async () => {
      const { id } = await ctx.store.createThread({});
      const first = await ctx.store.appendMessages(id, { expectedLength: 0, messages: [userMessage('a')] });
      const next = await ctx.store.appendMessages(id, {
        expectedLength: 1,
        messages: [assistantMessage('b', 'run-1', 1), userMessage('c', { visibility: 'internal' })],
      });
      expect([...first, ...next].map((record) => record.seq)).toEqual([1, 2, 3]);
      for (const record of next) expectValid(messageRecordSchema, record);
      expect(next[0]).toMatchObject({ threadId: id, runId: 'run-1', step: 1, visibility: 'external' });
      expect(await ctx.store.messageCount(id)).toBe(3);
      const read = await ctx.store.readMessages(id);
      expect(read).toEqual([...first, ...next]);
      for (const record of read) expectValid(messageRecordSchema, record);
    });

    it('rejects an append with a stale expected length and writes nothing', async () => {
      const { id } = await ctx.store.createThread({});
      await ctx.store.appendMessages(id, { expectedLength: 0, messages: [userMessage('a')] });
      await expectAwakenError(
        ctx.store.appendMessages(id, { expectedLength: 0, messages: [userMessage('b')] }),
        'stale_append',
      );
      await expectAwakenError(
        ctx.store.appendMessages(id, { expectedLength: 2, messages: [userMessage('b')] }),
        'stale_append',
      );
      expect((await ctx.store.readMessages(id)).map((record) => record.seq)).toEqual([1]);
    });

    it('lets exactly one of two concurrent appends with the same expected length win', async () => {
      const { id } = await ctx.store.createThread({});
      const peer = await ctx.peer();
      const results = await Promise.allSettled([
        ctx.store.appendMessages(id, { expectedLength: 0, messages: [userMessage('a')] }),
        peer.appendMessages(id, { expectedLength: 0, messages: [userMessage('b')] }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect(await ctx.store.messageCount(id)).toBe(1);
    });

    it('reads by seq range and visibility', async () => {
      const { id } = await ctx.store.createThread({});
      await ctx.store.appendMessages(id, {
        expectedLength: 0,
        messages: [
          userMessage('1'),
          userMessage('2', { visibility: 'internal' }),
          userMessage('3'),
          userMessage('4', { visibility: 'internal' }),
        ],
      });
      const seqs = async (range: Parameters<ThreadRunStore['readMessages']>[1]) =>
        (await ctx.store.readMessages(id, range)).map((record) => record.seq);
      expect(await seqs({ from: 2, to: 3 })).toEqual([2, 3]);
      expect(await seqs({ from: 3 })).toEqual([3, 4]);
      expect(await seqs({ to: 1 })).toEqual([1]);
      expect(await seqs({ visibility: 'internal' })).toEqual([2, 4]);
      expect(await seqs({ from: 2, to: 3, visibility: 'external' })).toEqual([3]);
      expect(await seqs({ from: 5 })).toEqual([]);
      // Ranges are inclusive and clipped to the log: to 0 or to < from is empty, from 0 reads from 1.
      expect(await seqs({ to: 0 })).toEqual([]);
      expect(await seqs({ from: 3, to: 2 })).toEqual([]);
      expect(await seqs({ from: 0, to: 1 })).toEqual([1]);
      expect(await seqs({ from: 4, to: Number.MAX_SAFE_INTEGER })).toEqual([4]);
    });

    it('rejects an invalid message with validation_failed and writes nothing', async () => {
      const { id } = await ctx.store.createThread({});
      const invalid = { visibility: 'secret', message: { role: 'user', content: 'x' } } as never;
      await expectAwakenError(
        ctx.store.appendMessages(id, { expectedLength: 0, messages: [userMessage('ok'), invalid] }),
        'validation_failed',
      );
      expect(await ctx.store.messageCount(id)).toBe(0);
    });
  });
}
