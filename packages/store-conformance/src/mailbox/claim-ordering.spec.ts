import { type MailboxStore, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectValid } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { dispatchInput } from './fixtures';

export function claimOrderingSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('claim ordering', () => {
    it('claims in priority order, then oldest first', async () => {
      const a = await ctx.store.enqueue(dispatchInput({ priority: 128 }));
      const b = await ctx.store.enqueue(dispatchInput({ priority: 10 }));
      const c = await ctx.store.enqueue(dispatchInput({ priority: 128 }));
      const d = await ctx.store.enqueue(dispatchInput({ priority: 0 }));
      const e = await ctx.store.enqueue(dispatchInput({ priority: 10 }));
      const claimed = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(claimed.map((dispatch) => dispatch.dispatchId)).toEqual(
        [d, b, e, a, c].map((dispatch) => dispatch.dispatchId),
      );
    });

    it('claims at most limit dispatches and leaves the rest queued in order', async () => {
      const inputs = [dispatchInput(), dispatchInput(), dispatchInput()];
      const enqueued = [];
      for (const input of inputs) enqueued.push(await ctx.store.enqueue(input));
      const first = await ctx.store.claim({ workerId: 'w', limit: 2, leaseMs: ctx.shortLeaseMs });
      expect(first.map((dispatch) => dispatch.dispatchId)).toEqual(
        enqueued.slice(0, 2).map((dispatch) => dispatch.dispatchId),
      );
      const rest = await ctx.store.claim({ workerId: 'w', limit: 2, leaseMs: ctx.shortLeaseMs });
      expect(rest.map((dispatch) => dispatch.dispatchId)).toEqual([enqueued[2]?.dispatchId]);
      expect(await ctx.store.claim({ workerId: 'w', limit: 2, leaseMs: ctx.shortLeaseMs })).toEqual([]);
    });

    it('stamps the claim with a token, the worker and a lease on the store clock', async () => {
      const enqueued = await ctx.store.enqueue(dispatchInput());
      const leaseMs = ctx.shortLeaseMs;
      const before = await ctx.store.now();
      const [claimed] = await ctx.store.claim({ workerId: 'worker-7', limit: 1, leaseMs });
      const after = await ctx.store.now();
      expectValid(runDispatchSchema, claimed);
      expect(claimed).toMatchObject({
        dispatchId: enqueued.dispatchId,
        status: 'claimed',
        claimedBy: 'worker-7',
      });
      expect(claimed?.claimToken).toEqual(expect.any(String));
      expect(claimed?.leaseUntil).toBeGreaterThanOrEqual(before + leaseMs);
      expect(claimed?.leaseUntil).toBeLessThanOrEqual(after + leaseMs);
      expect(claimed?.attemptCount).toBe(0);
      expect(await ctx.store.loadDispatch(enqueued.dispatchId)).toEqual(claimed);
    });

    it('gives every claim a different token', async () => {
      await ctx.store.enqueue(dispatchInput());
      await ctx.store.enqueue(dispatchInput());
      const claimed = await ctx.store.claim({ workerId: 'w', limit: 2, leaseMs: ctx.shortLeaseMs });
      expect(new Set(claimed.map((dispatch) => dispatch.claimToken)).size).toBe(2);
    });
  });
}
