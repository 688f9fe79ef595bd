import { type MailboxStore, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectValid } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function nackBackoffSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('nack backoff and dead letter', () => {
    it('requeues at retryAt with the attempt counted and the claim dropped', async () => {
      const backoffMs = 200;
      const enqueued = await ctx.store.enqueue(dispatchInput());
      const claimed = await claimOne(ctx.store, enqueued, ctx.shortLeaseMs);
      const retryAt = (await ctx.store.now()) + backoffMs;
      const nacked = await ctx.store.nack({ ...proofOf(claimed), error: 'model overloaded', retryAt });
      expectValid(runDispatchSchema, nacked);
      expect(nacked).toMatchObject({
        status: 'queued',
        attemptCount: 1,
        lastError: 'model overloaded',
        availableAt: retryAt,
      });
      expect(nacked.claimToken).toBeUndefined();
      expect(await ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: ctx.shortLeaseMs })).toEqual([]);
      await ctx.elapse(backoffMs);
      const [again] = await ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: ctx.shortLeaseMs });
      expect(again).toMatchObject({ dispatchId: enqueued.dispatchId, attemptCount: 1 });
      expect(again?.claimToken).not.toBe(claimed.claimToken);
    });

    it('requeues for immediate retry when no retryAt is given', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      await ctx.store.nack({ ...proofOf(claimed), error: 'transient' });
      const [again] = await ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: ctx.shortLeaseMs });
      expect(again?.dispatchId).toBe(claimed.dispatchId);
    });

    it('dead-letters on the nack that uses the last of maxAttempts', async () => {
      const enqueued = await ctx.store.enqueue(dispatchInput({ maxAttempts: 3 }));
      const statuses: string[] = [];
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const claimed = await claimOne(ctx.store, enqueued, ctx.shortLeaseMs);
        const nacked = await ctx.store.nack({ ...proofOf(claimed), error: `failure ${attempt}` });
        expect(nacked.attemptCount).toBe(attempt);
        statuses.push(nacked.status);
      }
      expect(statuses).toEqual(['queued', 'queued', 'dead_letter']);
      const dead = await ctx.store.loadDispatch(enqueued.dispatchId);
      expect(dead).toMatchObject({ status: 'dead_letter', attemptCount: 3, lastError: 'failure 3' });
      expect(await ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: ctx.shortLeaseMs })).toEqual([]);
    });
  });
}
