import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function availableAtSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('availableAt and claim by id', () => {
    it('claims a delayed dispatch only once its availableAt has come', async () => {
      const delayMs = 200;
      const delayed = await ctx.store.enqueue(
        dispatchInput({ availableAt: (await ctx.store.now()) + delayMs }),
      );
      const ready = await ctx.store.enqueue(dispatchInput({ priority: 255 }));
      const first = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(first.map((dispatch) => dispatch.dispatchId)).toEqual([ready.dispatchId]);
      await ctx.elapse(delayMs);
      const later = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(later.map((dispatch) => dispatch.dispatchId)).toEqual([delayed.dispatchId]);
    });

    it('claims a delayed dispatch by id at once', async () => {
      const delayed = await ctx.store.enqueue(
        dispatchInput({ availableAt: (await ctx.store.now()) + 3_600_000 }),
      );
      const claimed = await ctx.store.claimDispatch({
        dispatchId: delayed.dispatchId,
        workerId: 'inline',
        leaseMs: ctx.shortLeaseMs,
      });
      expect(claimed).toMatchObject({ status: 'claimed', claimedBy: 'inline' });
    });

    it('returns null when claiming by id a dispatch that is not queued', async () => {
      const enqueued = await ctx.store.enqueue(dispatchInput());
      const claimed = await claimOne(ctx.store, enqueued, ctx.shortLeaseMs);
      const again = { dispatchId: enqueued.dispatchId, workerId: 'other', leaseMs: ctx.shortLeaseMs };
      expect(await ctx.store.claimDispatch(again)).toBeNull();
      await ctx.store.ack(proofOf(claimed));
      expect(await ctx.store.claimDispatch(again)).toBeNull();
    });

    it('returns null when claiming by id while the thread has another claim', async () => {
      const threadId = uniqueId('thread');
      const first = await ctx.store.enqueue(dispatchInput({ threadId }));
      const second = await ctx.store.enqueue(dispatchInput({ threadId }));
      await claimOne(ctx.store, first, ctx.shortLeaseMs);
      expect(
        await ctx.store.claimDispatch({
          dispatchId: second.dispatchId,
          workerId: 'w',
          leaseMs: ctx.shortLeaseMs,
        }),
      ).toBeNull();
      expect((await ctx.store.loadDispatch(second.dispatchId))?.status).toBe('queued');
    });

    it('rejects claiming an unknown dispatch by id with not_found', async () => {
      await expectAwakenError(
        ctx.store.claimDispatch({
          dispatchId: uniqueId('missing'),
          workerId: 'w',
          leaseMs: ctx.shortLeaseMs,
        }),
        'not_found',
      );
    });
  });
}
