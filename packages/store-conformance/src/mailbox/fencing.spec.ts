import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function fencingSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('token and epoch fencing', () => {
    it('rejects every claimant write with a wrong token and writes nothing', async () => {
      const dispatch = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      const before = await ctx.store.loadDispatch(dispatch.dispatchId);
      const proof = { dispatchId: dispatch.dispatchId, claimToken: `${dispatch.claimToken}-forged` };
      const result = { runId: dispatch.runId, dispatchInstanceId: 'i', status: 'done' as const };
      await expectAwakenError(ctx.store.ack(proof), 'stale_claim');
      await expectAwakenError(ctx.store.nack({ ...proof, error: 'x' }), 'stale_claim');
      await expectAwakenError(ctx.store.deadLetter({ ...proof, error: 'x' }), 'stale_claim');
      await expectAwakenError(ctx.store.extendLease({ ...proof, leaseMs: 60_000 }), 'stale_claim');
      await expectAwakenError(
        ctx.store.recordDispatchStart({ ...proof, dispatchInstanceId: 'i' }),
        'stale_claim',
      );
      await expectAwakenError(ctx.store.recordRunResult({ ...proof, result }), 'stale_claim');
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(before);
    });

    it('rejects writes once the lease has lapsed, even before any sweep', async () => {
      const leaseMs = ctx.shortLeaseMs;
      const dispatch = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), leaseMs);
      await ctx.elapse(leaseMs + 1);
      await expectAwakenError(ctx.store.ack(proofOf(dispatch)), 'stale_claim');
      await expectAwakenError(
        ctx.store.extendLease({ ...proofOf(dispatch), leaseMs: 60_000 }),
        'stale_claim',
      );
      expect((await ctx.store.loadDispatch(dispatch.dispatchId))?.status).toBe('claimed');
    });

    it('fails the late ack of a reclaimed owner and accepts the new owner ack', async () => {
      const leaseMs = ctx.shortLeaseMs;
      const enqueued = await ctx.store.enqueue(dispatchInput());
      const oldOwner = await claimOne(ctx.store, enqueued, leaseMs, 'old-owner');
      await ctx.elapse(leaseMs + 1);
      const reclaimed = await ctx.store.reclaimExpiredLeases();
      expect(reclaimed.map((dispatch) => dispatch.dispatchId)).toContain(enqueued.dispatchId);
      const newOwner = await claimOne(ctx.store, enqueued, 60_000, 'new-owner');
      await expectAwakenError(ctx.store.ack(proofOf(oldOwner)), 'stale_claim');
      const acked = await ctx.store.ack(proofOf(newOwner));
      expect(acked).toMatchObject({ status: 'acked', claimedBy: 'new-owner', attemptCount: 1 });
    });

    it('rejects the writes of a claimant whose thread was interrupted, while its lease is still held', async () => {
      const dispatch = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), 60_000);
      await ctx.store.interrupt(dispatch.threadId);
      const proof = proofOf(dispatch);
      await expectAwakenError(ctx.store.ack(proof), 'stale_claim');
      await expectAwakenError(ctx.store.nack({ ...proof, error: 'x' }), 'stale_claim');
      await expectAwakenError(ctx.store.extendLease({ ...proof, leaseMs: 60_000 }), 'stale_claim');
      await expectAwakenError(
        ctx.store.recordDispatchStart({ ...proof, dispatchInstanceId: 'i' }),
        'stale_claim',
      );
      expect((await ctx.store.loadDispatch(dispatch.dispatchId))?.status).toBe('claimed');
    });

    it('accepts an ack after the lease was extended past its first deadline', async () => {
      const leaseMs = ctx.shortLeaseMs;
      const dispatch = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), leaseMs);
      await ctx.store.extendLease({ ...proofOf(dispatch), leaseMs: leaseMs * 20 });
      await ctx.elapse(leaseMs + 1);
      expect(await ctx.store.reclaimExpiredLeases()).toEqual([]);
      expect((await ctx.store.ack(proofOf(dispatch))).status).toBe('acked');
    });
  });
}
