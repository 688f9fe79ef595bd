import type { ThreadRunStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { newRunRecord, userMessage } from './fixtures';

export function threadIdsSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('thread ids', () => {
    it('keeps threads apart when one id extends another with a separator and suffix', async () => {
      const base = uniqueId('thread');
      const threads = [base, `${base}:m`, `${base}:r`, `${base}:m:m`];
      for (const [index, threadId] of threads.entries()) {
        expect((await ctx.store.createThread({ id: threadId })).id).toBe(threadId);
        const messages = Array.from({ length: index + 1 }, (_, n) => userMessage(`${threadId} ${n}`));
        await ctx.store.appendMessages(threadId, { expectedLength: 0, messages });
        await ctx.store.createRun(newRunRecord(threadId));
      }
      for (const [index, threadId] of threads.entries()) {
        expect((await ctx.store.getThread(threadId))?.id).toBe(threadId);
        expect(await ctx.store.messageCount(threadId)).toBe(index + 1);
        expect((await ctx.store.listRuns(threadId)).items.map((run) => run.threadId)).toEqual([threadId]);
      }
      expect(await ctx.store.deleteThread(`${base}:m`)).toBe(true);
      expect(await ctx.store.messageCount(base)).toBe(1);
      expect((await ctx.store.getThread(`${base}:m:m`))?.id).toBe(`${base}:m:m`);
    });
  });
}
