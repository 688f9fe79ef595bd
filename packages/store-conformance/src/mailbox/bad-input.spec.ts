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
      for (const olderThan of [Number.NaN, 1.5, -1]) {
        await expectAwakenError(ctx.store.purgeTerminal({ olderThan }), 'validation_failed');
      }
    });

    it('rejects a claim limit or lease that is not a positive integer, claiming nothing', async () => {
      const queued = await ctx.store.enqueue(dispatchInput());
      const lease = ctx.shortLeaseMs;
      const bad: unknown[] = [0, -3, 1.5, Number.NaN, 1e30, '1', null];
      for (const limit of bad) {
        await expectAwakenError(
          ctx.store.claim({ workerId: 'w', limit, leaseMs: lease } as never),
          'validation_failed',
        );
      }
      for (const leaseMs of bad) {
        await expectAwakenError(
          ctx.store.claim({ workerId: 'w', limit: 1, leaseMs } as never),
          'validation_failed',
        );
        await expectAwakenError(
          ctx.store.claimDispatch({ dispatchId: queued.dispatchId, workerId: 'w', leaseMs } as never),
          'validation_failed',
        );
      }
      expect(await ctx.store.loadDispatch(queued.dispatchId)).toEqual(queued);
    });

    it('rejects a worker id or dispatch id that is not a non-empty well-formed string', async () => {
      const queued = await ctx.store.enqueue(dispatchInput());
      for (const workerId of [42, '', undefined, '\uD800']) {
        await expectAwakenError(
          ctx.store.claim({ workerId, limit: 1, leaseMs: ctx.shortLeaseMs } as never),
          'validation_failed',
        );
      }
      for (const dispatchId of ['', 7, '\uDC00x']) {
        await expectAwakenError(ctx.store.cancel(dispatchId as never), 'validation_failed');
        await expectAwakenError(ctx.store.loadDispatch(dispatchId as never), 'validation_failed');
      }
      expect(await ctx.store.loadDispatch(queued.dispatchId)).toEqual(queued);
    });

    it('rejects a nack or dead letter without an error text, leaving the claim as it was', async () => {
      const dispatch = await claimed();
      await expectAwakenError(ctx.store.nack({ ...proofOf(dispatch) } as never), 'validation_failed');
      await expectAwakenError(
        ctx.store.deadLetter({ ...proofOf(dispatch), error: 5 } as never),
        'validation_failed',
      );
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
      const nacked = await ctx.store.nack({ ...proofOf(dispatch), error: '' });
      expect(nacked.lastError).toBe('');
    });

    it('rejects a page limit, cursor or status filter a listing cannot take', async () => {
      const { threadId } = await ctx.store.enqueue(dispatchInput());
      for (const limit of [0, -3, 1.5, Number.NaN]) {
        await expectAwakenError(ctx.store.listDispatches(threadId, { limit }), 'validation_failed');
      }
      for (const cursor of ['-5', '1.5', 'abc', '']) {
        await expectAwakenError(ctx.store.listDispatches(threadId, { cursor }), 'validation_failed');
      }
      await expectAwakenError(ctx.store.listDispatches(threadId, { status: [] }), 'validation_failed');
      await expectAwakenError(ctx.store.listDispatches('', {}), 'validation_failed');
      expect((await ctx.store.listDispatches(threadId, { limit: 5_000 })).items).toHaveLength(1);
    });
  });
}
