import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { dispatchInput, proofOf } from './fixtures';

export function threadIdsSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('thread ids', () => {
    it('keeps threads apart when one id extends another with a separator and suffix', async () => {
      const base = uniqueId('thread');
      const threads = [base, `${base}:q`, `${base}:a`, `${base}:dd`, `${base}:q:q`];
      for (const threadId of threads) {
        await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      }
      const claimed = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(claimed.map((dispatch) => dispatch.threadId).sort()).toEqual([...threads].sort());
      for (const threadId of threads) {
        await ctx.store.enqueue(dispatchInput({ threadId }));
      }
      const interrupted = await ctx.store.interrupt(`${base}:q`);
      expect(interrupted).toMatchObject({ newDispatchEpoch: 1, supersededCount: 1 });
      for (const threadId of threads) {
        const page = await ctx.store.listDispatches(threadId);
        expect(page.items.map((dispatch) => dispatch.threadId)).toEqual([threadId, threadId]);
        expect(await ctx.store.threadEpoch(threadId)).toBe(threadId === `${base}:q` ? 1 : 0);
      }
      for (const dispatch of claimed.filter((item) => item.threadId !== `${base}:q`)) {
        expect((await ctx.store.ack(proofOf(dispatch))).status).toBe('acked');
      }
    });
  });
}
