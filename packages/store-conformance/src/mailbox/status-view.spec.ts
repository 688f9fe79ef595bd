import { type MailboxStore, type RunDispatch, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { itChecksInput } from '../internal/it-checks-input';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

const ids = (page: { items: RunDispatch[] }) => page.items.map((dispatch) => dispatch.dispatchId);
const NONE = { queued: 0, claimed: 0, acked: 0, cancelled: 0, superseded: 0, dead_letter: 0 };

/**
 * The tenant-wide view a console reads instead of one request per thread: `countDispatches`,
 * `listDispatchesByStatus` and `purgeTerminal` by status, all served from the store's status index.
 */
export function statusViewSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('tenant-wide status view', () => {
    it('counts the dispatches of every thread by status, following every status move', async () => {
      expect(await ctx.store.countDispatches()).toEqual(NONE);
      const a = uniqueId('thread');
      const b = uniqueId('thread');
      const toAck = await ctx.store.enqueue(dispatchInput({ threadId: a }));
      const toCancel = await ctx.store.enqueue(dispatchInput({ threadId: a }));
      const toDeadLetter = await ctx.store.enqueue(dispatchInput({ threadId: b, maxAttempts: 2 }));
      await ctx.store.enqueue(dispatchInput({ threadId: b }));
      expect(await ctx.store.countDispatches()).toEqual({ ...NONE, queued: 4 });

      const acking = await claimOne(ctx.store, toAck, ctx.shortLeaseMs);
      const failing = await claimOne(ctx.store, toDeadLetter, ctx.shortLeaseMs);
      expect(await ctx.store.countDispatches()).toEqual({ ...NONE, queued: 2, claimed: 2 });
      await ctx.store.nack({ ...proofOf(failing), error: 'first' }); // requeued: claimed -> queued
      expect(await ctx.store.countDispatches()).toEqual({ ...NONE, queued: 3, claimed: 1 });
      await ctx.store.ack(proofOf(acking));
      await ctx.store.cancel(toCancel.dispatchId);
      const again = await claimOne(ctx.store, toDeadLetter, ctx.shortLeaseMs);
      expect((await ctx.store.nack({ ...proofOf(again), error: 'second' })).status).toBe('dead_letter');
      await ctx.store.interrupt(b); // supersedes b's queued dispatch
      expect(await ctx.store.countDispatches()).toEqual({
        ...NONE,
        acked: 1,
        cancelled: 1,
        dead_letter: 1,
        superseded: 1,
      });
      await ctx.store.enqueueAndClaim({ ...dispatchInput(), workerId: 'w', leaseMs: ctx.shortLeaseMs });
      expect((await ctx.store.countDispatches()).claimed).toBe(1);
      expect(await ctx.store.purgeTerminal({ olderThan: (await ctx.store.now()) + 1 })).toBe(4);
      expect(await ctx.store.countDispatches()).toEqual({ ...NONE, claimed: 1 });
    });

    it('lists the dispatches of every thread with one status, newest enqueued first, paged once each', async () => {
      const dead: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const dispatch = await ctx.store.enqueue(dispatchInput({ maxAttempts: 1 }));
        if (index === 2) continue; // stays queued
        const claimed = await claimOne(ctx.store, dispatch, ctx.shortLeaseMs);
        await ctx.store.deadLetter({ ...proofOf(claimed), error: `boom ${index}` });
        dead.push(dispatch.dispatchId);
      }
      const first = await ctx.store.listDispatchesByStatus('dead_letter');
      expect(ids(first)).toEqual([...dead].reverse());
      expect(first.nextCursor).toBeUndefined();
      for (const dispatch of first.items) {
        expect(expectValid(runDispatchSchema, dispatch).status).toBe('dead_letter');
        expect(dispatch.lastError).toMatch(/^boom \d$/);
        expect(dispatch).toEqual(await ctx.store.loadDispatch(dispatch.dispatchId));
      }
      expect((await ctx.store.listDispatchesByStatus('queued')).items).toHaveLength(1);
      expect((await ctx.store.listDispatchesByStatus('acked')).items).toEqual([]);

      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await ctx.store.listDispatchesByStatus('dead_letter', {
          limit: 3,
          ...(cursor ? { cursor } : {}),
        });
        pages.push(ids(page));
        cursor = page.nextCursor;
      } while (cursor !== undefined && pages.length < 5);
      expect(pages).toEqual([[...dead].reverse().slice(0, 3), [...dead].reverse().slice(3)]);
    });

    it('purges only the terminal statuses named, updated before the cutoff', async () => {
      const deadLetter = async () => {
        const claimed = await claimOne(
          ctx.store,
          await ctx.store.enqueue(dispatchInput({ maxAttempts: 1 })),
          ctx.shortLeaseMs,
        );
        return ctx.store.deadLetter({ ...proofOf(claimed), error: 'boom' });
      };
      const old = [await deadLetter(), await deadLetter()];
      const acked = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      await ctx.store.ack(proofOf(acked));
      await ctx.elapse(20);
      const cutoff = await ctx.store.now();
      await ctx.elapse(20);
      const recent = await deadLetter();

      expect(await ctx.store.purgeTerminal({ olderThan: cutoff, status: ['dead_letter'] })).toBe(2);
      for (const dispatch of old) expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toBeNull();
      expect(ids(await ctx.store.listDispatchesByStatus('dead_letter'))).toEqual([recent.dispatchId]);
      expect((await ctx.store.loadDispatch(acked.dispatchId))?.status).toBe('acked');
      expect(await ctx.store.countDispatches()).toEqual({ ...NONE, acked: 1, dead_letter: 1 });
      expect(
        await ctx.store.purgeTerminal({ olderThan: (await ctx.store.now()) + 1, status: ['dead_letter'] }),
      ).toBe(1);
      expect(await ctx.store.countDispatches()).toEqual({ ...NONE, acked: 1 });
    });

    itChecksInput(ctx, 'rejects an unknown status, a bad page or a live status to purge', async () => {
      const queued = await ctx.store.enqueue(dispatchInput());
      await expectAwakenError(ctx.store.listDispatchesByStatus('lost' as never), 'validation_failed');
      await expectAwakenError(
        ctx.store.listDispatchesByStatus('queued', { cursor: '1.5' }),
        'validation_failed',
      );
      await expectAwakenError(ctx.store.listDispatchesByStatus('queued', { limit: 0 }), 'validation_failed');
      const now = (await ctx.store.now()) + 1;
      for (const status of [['queued'], ['claimed', 'acked'], [], ['lost']]) {
        await expectAwakenError(
          ctx.store.purgeTerminal({ olderThan: now, status } as never),
          'validation_failed',
        );
      }
      expect(await ctx.store.loadDispatch(queued.dispatchId)).toEqual(queued);
    });
  });
}
