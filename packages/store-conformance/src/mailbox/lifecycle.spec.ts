import { type MailboxStore, RUN_DISPATCH_STATUS_TRANSITIONS, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function lifecycleSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('lifecycle transitions', () => {
    const claimed = async () =>
      claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);

    it('acks a claimed dispatch: terminal, claim fields kept for audit', async () => {
      const dispatch = await claimed();
      const acked = await ctx.store.ack(proofOf(dispatch));
      expectValid(runDispatchSchema, acked);
      expect(acked).toMatchObject({ status: 'acked', attemptCount: 0, claimedBy: dispatch.claimedBy });
      expect(RUN_DISPATCH_STATUS_TRANSITIONS.claimed).toContain('acked');
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(acked);
    });

    it('rejects every claimant write after the ack with stale_claim', async () => {
      const dispatch = await claimed();
      const proof = proofOf(dispatch);
      await ctx.store.ack(proof);
      await expectAwakenError(ctx.store.ack(proof), 'stale_claim');
      await expectAwakenError(ctx.store.nack({ ...proof, error: 'x' }), 'stale_claim');
      await expectAwakenError(ctx.store.deadLetter({ ...proof, error: 'x' }), 'stale_claim');
      await expectAwakenError(ctx.store.extendLease({ ...proof, leaseMs: 1000 }), 'stale_claim');
      expect((await ctx.store.loadDispatch(dispatch.dispatchId))?.status).toBe('acked');
    });

    it('dead-letters a claimed dispatch with its error', async () => {
      const dispatch = await claimed();
      const dead = await ctx.store.deadLetter({ ...proofOf(dispatch), error: 'permanent failure' });
      expectValid(runDispatchSchema, dead);
      expect(dead).toMatchObject({ status: 'dead_letter', lastError: 'permanent failure' });
      expect(await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs })).toEqual([]);
    });

    it('cancels a queued dispatch, which is then never claimed', async () => {
      const dispatch = await ctx.store.enqueue(dispatchInput());
      const cancelled = await ctx.store.cancel(dispatch.dispatchId);
      expectValid(runDispatchSchema, cancelled);
      expect(cancelled.status).toBe('cancelled');
      expect(await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs })).toEqual([]);
    });

    it('rejects cancelling a claimed or terminal dispatch with conflict and an unknown one with not_found', async () => {
      const dispatch = await claimed();
      await expectAwakenError(ctx.store.cancel(dispatch.dispatchId), 'conflict');
      await ctx.store.ack(proofOf(dispatch));
      await expectAwakenError(ctx.store.cancel(dispatch.dispatchId), 'conflict');
      await expectAwakenError(ctx.store.cancel(uniqueId('missing')), 'not_found');
      expect((await ctx.store.loadDispatch(dispatch.dispatchId))?.status).toBe('acked');
    });

    it('rejects claimant writes for an unknown dispatch with not_found', async () => {
      const proof = { dispatchId: uniqueId('missing'), claimToken: 'token' };
      await expectAwakenError(ctx.store.ack(proof), 'not_found');
      await expectAwakenError(ctx.store.nack({ ...proof, error: 'x' }), 'not_found');
      await expectAwakenError(ctx.store.extendLease({ ...proof, leaseMs: 1000 }), 'not_found');
    });

    it('rejects superseding a claim of the current epoch or a queued dispatch with conflict', async () => {
      const dispatch = await claimed();
      await expectAwakenError(ctx.store.supersedeClaimed(dispatch.dispatchId), 'conflict');
      const queued = await ctx.store.enqueue(dispatchInput());
      await expectAwakenError(ctx.store.supersedeClaimed(queued.dispatchId), 'conflict');
      await expectAwakenError(ctx.store.supersedeClaimed(uniqueId('missing')), 'not_found');
      expect((await ctx.store.loadDispatch(dispatch.dispatchId))?.status).toBe('claimed');
    });

    it('extends a lease from the store clock and keeps the claim', async () => {
      const dispatch = await claimed();
      const before = await ctx.store.now();
      const extended = await ctx.store.extendLease({ ...proofOf(dispatch), leaseMs: 60_000 });
      expect(extended).toMatchObject({ status: 'claimed', claimToken: dispatch.claimToken });
      expect(extended.leaseUntil).toBeGreaterThanOrEqual(before + 60_000);
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(extended);
    });

    it('rejects a non-positive claim limit or lease with validation_failed', async () => {
      await expectAwakenError(
        ctx.store.claim({ workerId: 'w', limit: 0, leaseMs: 1000 }),
        'validation_failed',
      );
      await expectAwakenError(ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: 0 }), 'validation_failed');
    });
  });
}
