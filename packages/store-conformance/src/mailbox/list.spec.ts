import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function listSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('list dispatches', () => {
    it('lists the thread dispatches oldest first, filtered by status', async () => {
      const threadId = uniqueId('thread');
      const first = await ctx.store.enqueue(dispatchInput({ threadId }));
      const second = await ctx.store.enqueue(dispatchInput({ threadId }));
      const third = await ctx.store.enqueue(dispatchInput({ threadId }));
      await ctx.store.enqueue(dispatchInput());
      await ctx.store.ack(proofOf(await claimOne(ctx.store, first, ctx.shortLeaseMs)));
      await ctx.store.cancel(third.dispatchId);
      const all = await ctx.store.listDispatches(threadId);
      expect(all.items.map((dispatch) => dispatch.dispatchId)).toEqual(
        [first, second, third].map((dispatch) => dispatch.dispatchId),
      );
      expect(all.nextCursor).toBeUndefined();
      const finished = await ctx.store.listDispatches(threadId, { status: ['acked', 'cancelled'] });
      expect(finished.items.map((dispatch) => dispatch.status)).toEqual(['acked', 'cancelled']);
      expect((await ctx.store.listDispatches(uniqueId('thread'))).items).toEqual([]);
    });

    it('pages through every dispatch exactly once', async () => {
      const threadId = uniqueId('thread');
      const ids: string[] = [];
      for (let index = 0; index < 7; index += 1) {
        ids.push((await ctx.store.enqueue(dispatchInput({ threadId }))).dispatchId);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await ctx.store.listDispatches(threadId, { limit: 3, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(3);
        seen.push(...page.items.map((dispatch) => dispatch.dispatchId));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect(seen).toEqual(ids);
      expect(pages).toBe(3);
    });
  });
}
