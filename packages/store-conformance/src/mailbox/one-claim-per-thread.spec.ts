import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { dispatchInput, proofOf } from './fixtures';

export function oneClaimPerThreadSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('one claim per thread', () => {
    it('claims one dispatch of a thread at a time, the next only after the first is acked', async () => {
      const threadId = uniqueId('thread');
      const first = await ctx.store.enqueue(dispatchInput({ threadId }));
      const second = await ctx.store.enqueue(dispatchInput({ threadId }));
      const other = await ctx.store.enqueue(dispatchInput());
      const claimed = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(claimed.map((dispatch) => dispatch.dispatchId).sort()).toEqual(
        [first.dispatchId, other.dispatchId].sort(),
      );
      expect(await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs })).toEqual([]);
      const firstClaim = claimed.find((dispatch) => dispatch.dispatchId === first.dispatchId);
      await ctx.store.ack(proofOf(firstClaim!));
      const next = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(next.map((dispatch) => dispatch.dispatchId)).toEqual([second.dispatchId]);
    });

    it('frees the thread when its claim is nacked, dead-lettered or superseded', async () => {
      const threadId = uniqueId('thread');
      for (let index = 0; index < 4; index += 1) await ctx.store.enqueue(dispatchInput({ threadId }));
      const claimOnly = async () => {
        const claimed = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
        expect(claimed).toHaveLength(1);
        return claimed[0]!;
      };
      await ctx.store.nack({
        ...proofOf(await claimOnly()),
        error: 'retry later',
        retryAt: (await ctx.store.now()) + 3_600_000,
      });
      await ctx.store.deadLetter({ ...proofOf(await claimOnly()), error: 'broken' });
      const third = await claimOnly();
      await ctx.store.interrupt(threadId);
      await ctx.store.supersedeClaimed(third.dispatchId);
      const fresh = await ctx.store.enqueue(dispatchInput({ threadId }));
      expect((await claimOnly()).dispatchId).toBe(fresh.dispatchId);
    });
  });
}
