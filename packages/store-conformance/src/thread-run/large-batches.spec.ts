import type { NewMessage, ThreadRunStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from '../suite-context';
import { nextCheckpoint, threadWithRun } from './fixtures';

const messages = (count: number, label: string): NewMessage[] =>
  Array.from({ length: count }, (_, index) => ({
    visibility: 'external',
    message: { role: 'user', content: `${label} ${index}` },
  }));

/** No size cliff: a batch of any size is written whole (a backend chunks inside if it must). */
export function largeBatchesSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('large batches', () => {
    it('appends 20,000 messages in one call', async () => {
      const { threadId } = await threadWithRun(ctx.store);
      const records = await ctx.store.appendMessages(threadId, {
        expectedLength: 0,
        messages: messages(20_000, 'append'),
      });
      expect(records).toHaveLength(20_000);
      expect(records.at(-1)?.seq).toBe(20_000);
      expect(await ctx.store.messageCount(threadId)).toBe(20_000);
    }, 120_000);

    it('commits a checkpoint of 50,000 messages', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', messages(50_000, 'checkpoint'));
      const stored = await ctx.store.commitCheckpoint(checkpoint);
      expect(stored.version).toBe(1);
      expect(await ctx.store.messageCount(threadId)).toBe(50_000);
      const tail = await ctx.store.readMessages(threadId, { from: 49_999 });
      expect(tail.map((record) => [record.seq, record.message])).toEqual([
        [49_999, { role: 'user', content: 'checkpoint 49998' }],
        [50_000, { role: 'user', content: 'checkpoint 49999' }],
      ]);
    }, 120_000);
  });
}
