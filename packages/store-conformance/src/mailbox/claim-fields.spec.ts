import type { MailboxStore, RunDispatch } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

/**
 * `claimToken` and `leaseUntil` exist only while a dispatch is claimed; every way out of a claim drops
 * both, and `claimedBy` keeps naming the worker of the latest claim (for audit) until the next claim.
 */
export function claimFieldsSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('claim fields after a claim ends', () => {
    const expectAfterClaim = async (dispatch: RunDispatch, status: RunDispatch['status']) => {
      expect(dispatch.status).toBe(status);
      expect(dispatch.claimToken).toBeUndefined();
      expect(dispatch.leaseUntil).toBeUndefined();
      expect(dispatch.claimedBy).toBe('worker-x');
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
    };
    const claimed = async (maxAttempts = 3) =>
      claimOne(
        ctx.store,
        await ctx.store.enqueue(dispatchInput({ maxAttempts })),
        ctx.shortLeaseMs,
        'worker-x',
      );

    it('ack drops the token and lease and keeps the worker', async () => {
      await expectAfterClaim(await ctx.store.ack(proofOf(await claimed())), 'acked');
    });

    it('deadLetter drops the token and lease and keeps the worker', async () => {
      const dispatch = await ctx.store.deadLetter({ ...proofOf(await claimed()), error: 'permanent' });
      await expectAfterClaim(dispatch, 'dead_letter');
    });

    it('a nack that requeues or dead-letters drops the token and lease and keeps the worker', async () => {
      await expectAfterClaim(await ctx.store.nack({ ...proofOf(await claimed()), error: 'x' }), 'queued');
      await expectAfterClaim(
        await ctx.store.nack({ ...proofOf(await claimed(1)), error: 'x' }),
        'dead_letter',
      );
    });

    it('supersedeClaimed drops the token and lease and keeps the worker', async () => {
      const dispatch = await claimed();
      await ctx.store.interrupt(dispatch.threadId);
      await expectAfterClaim(await ctx.store.supersedeClaimed(dispatch.dispatchId), 'superseded');
    });

    it('a reclaim drops the token and lease and keeps the worker', async () => {
      await claimed();
      await ctx.elapse(ctx.shortLeaseMs + 1);
      const [reclaimed] = await ctx.store.reclaimExpiredLeases();
      await expectAfterClaim(reclaimed as RunDispatch, 'queued');
    });

    it('the next claim names its own worker', async () => {
      const first = await claimed();
      await ctx.store.nack({ ...proofOf(first), error: 'x' });
      const again = await ctx.store.claimDispatch({
        dispatchId: first.dispatchId,
        workerId: 'worker-y',
        leaseMs: ctx.shortLeaseMs,
      });
      expect(again).toMatchObject({ status: 'claimed', claimedBy: 'worker-y' });
    });
  });
}
