import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

/** Invalid numbers given to claimant and sweep operations: rejected before anything is written. */
export function badInputSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('bad input', () => {
    const claimed = async () =>
      claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);

    it('rejects a nack whose retryAt is not a millisecond time, leaving the claim as it was', async () => {
      const dispatch = await claimed();
      for (const retryAt of [-1, Number.NaN, 1.5, Number.POSITIVE_INFINITY]) {
        await expectAwakenError(
          ctx.store.nack({ ...proofOf(dispatch), error: 'boom', retryAt }),
          'validation_failed',
        );
      }
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
      expect((await ctx.store.ack(proofOf(dispatch))).status).toBe('acked');
    });

    it('rejects a lease whose deadline would not be a safe integer, claiming and extending nothing', async () => {
      const queued = await ctx.store.enqueue(dispatchInput());
      const huge = Number.MAX_SAFE_INTEGER;
      await expectAwakenError(
        ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: huge }),
        'validation_failed',
      );
      await expectAwakenError(
        ctx.store.claimDispatch({ dispatchId: queued.dispatchId, workerId: 'w', leaseMs: huge }),
        'validation_failed',
      );
      expect(await ctx.store.loadDispatch(queued.dispatchId)).toEqual(queued);
      const dispatch = await claimOne(ctx.store, queued, ctx.shortLeaseMs);
      await expectAwakenError(
        ctx.store.extendLease({ ...proofOf(dispatch), leaseMs: huge }),
        'validation_failed',
      );
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
    });

    it('rejects a reclaim limit that is not a positive integer', async () => {
      for (const limit of [0, -1, Number.NaN, 1.5]) {
        await expectAwakenError(ctx.store.reclaimExpiredLeases({ limit }), 'validation_failed');
      }
    });

    it('rejects a purge cutoff that is not a number of milliseconds', async () => {
      await expectAwakenError(ctx.store.purgeTerminal({ olderThan: Number.NaN }), 'validation_failed');
    });
  });
}
