import { type MailboxStore, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function reclaimSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('reclaim expired leases', () => {
    it('leaves a live lease alone and requeues an expired one with the attempt counted', async () => {
      const leaseMs = ctx.shortLeaseMs;
      const enqueued = await ctx.store.enqueue(dispatchInput());
      await claimOne(ctx.store, enqueued, leaseMs, 'crashed-worker');
      expect(await ctx.store.reclaimExpiredLeases()).toEqual([]);
      await ctx.elapse(leaseMs + 1);
      const [reclaimed] = await ctx.store.reclaimExpiredLeases();
      expectValid(runDispatchSchema, reclaimed);
      expect(reclaimed).toMatchObject({ dispatchId: enqueued.dispatchId, status: 'queued', attemptCount: 1 });
      expect(reclaimed?.claimToken).toBeUndefined();
      expect(reclaimed?.leaseUntil).toBeUndefined();
      expect(reclaimed?.lastError).toEqual(expect.any(String));
      const [again] = await ctx.store.claim({ workerId: 'w2', limit: 1, leaseMs });
      expect(again?.dispatchId).toBe(enqueued.dispatchId);
    });

    if (ctx.controlsClock) {
      it('keeps a lease owned exactly at its deadline and reclaims it one millisecond later', async () => {
        const dispatch = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), 1_000);
        await ctx.elapse(dispatch.leaseUntil! - (await ctx.store.now()));
        expect(await ctx.store.now()).toBe(dispatch.leaseUntil);
        expect(await ctx.store.reclaimExpiredLeases()).toEqual([]);
        expect((await ctx.store.extendLease({ ...proofOf(dispatch), leaseMs: 1 })).leaseUntil).toBe(
          dispatch.leaseUntil! + 1,
        );
        await ctx.elapse(1);
        expect((await ctx.store.ack(proofOf(dispatch))).status).toBe('acked');
        const other = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), 1_000);
        await ctx.elapse(1_001);
        expect((await ctx.store.reclaimExpiredLeases()).map((d) => d.dispatchId)).toEqual([other.dispatchId]);
      });
    }

    it('dead-letters an expired claim that used its last attempt', async () => {
      const leaseMs = ctx.shortLeaseMs;
      const enqueued = await ctx.store.enqueue(dispatchInput({ maxAttempts: 1 }));
      await claimOne(ctx.store, enqueued, leaseMs);
      await ctx.elapse(leaseMs + 1);
      const [reclaimed] = await ctx.store.reclaimExpiredLeases();
      expect(reclaimed).toMatchObject({ status: 'dead_letter', attemptCount: 1 });
    });

    it('supersedes an expired claim whose thread was interrupted', async () => {
      const leaseMs = ctx.shortLeaseMs;
      const enqueued = await ctx.store.enqueue(dispatchInput());
      await claimOne(ctx.store, enqueued, leaseMs);
      await ctx.store.interrupt(enqueued.threadId);
      await ctx.elapse(leaseMs + 1);
      const [reclaimed] = await ctx.store.reclaimExpiredLeases();
      expect(reclaimed).toMatchObject({ dispatchId: enqueued.dispatchId, status: 'superseded' });
    });

    it('reclaims each expired dispatch once under concurrent sweepers', async () => {
      const leaseMs = ctx.shortLeaseMs;
      const ids: string[] = [];
      for (let index = 0; index < 20; index += 1) {
        const dispatch = await ctx.store.enqueue(dispatchInput());
        ids.push(dispatch.dispatchId);
      }
      await ctx.store.claim({ workerId: 'w', limit: 20, leaseMs });
      await ctx.elapse(leaseMs + 1);
      const sweepers = await Promise.all(
        [ctx.store, await ctx.peer(), await ctx.peer()].flatMap((store) =>
          [0, 1].map(() => store.reclaimExpiredLeases()),
        ),
      );
      const reclaimed = sweepers.flat().map((dispatch) => dispatch.dispatchId);
      expect(reclaimed.sort()).toEqual(ids.sort());
      for (const id of ids) expect((await ctx.store.loadDispatch(id))?.attemptCount).toBe(1);
    });

    it('reclaims the earliest deadlines first and says whose lease expired', async () => {
      const first = await ctx.store.enqueue(dispatchInput());
      const second = await ctx.store.enqueue(dispatchInput());
      await claimOne(ctx.store, second, ctx.shortLeaseMs, 'worker-b');
      await ctx.elapse(1);
      await claimOne(ctx.store, first, ctx.shortLeaseMs, 'worker-a');
      await ctx.elapse(ctx.shortLeaseMs + 1);
      const reclaimed = await ctx.store.reclaimExpiredLeases();
      expect(reclaimed.map((dispatch) => [dispatch.dispatchId, dispatch.lastError])).toEqual([
        [second.dispatchId, 'lease of worker-b expired'],
        [first.dispatchId, 'lease of worker-a expired'],
      ]);
    });

    it('reclaims equal deadlines in enqueue order, whatever their ids', async () => {
      const first = await ctx.store.enqueue(dispatchInput({ dispatchId: uniqueId('zz') }));
      const second = await ctx.store.enqueue(dispatchInput({ dispatchId: uniqueId('aa') }));
      const claimed = await ctx.store.claim({ workerId: 'w', limit: 2, leaseMs: ctx.shortLeaseMs });
      expect(new Set(claimed.map((dispatch) => dispatch.leaseUntil)).size).toBe(1);
      await ctx.elapse(ctx.shortLeaseMs + 1);
      expect((await ctx.store.reclaimExpiredLeases({ limit: 1 })).map((d) => d.dispatchId)).toEqual([
        first.dispatchId,
      ]);
      expect((await ctx.store.reclaimExpiredLeases({ limit: 1 })).map((d) => d.dispatchId)).toEqual([
        second.dispatchId,
      ]);
    });

    it('reclaims at most 100 dispatches per call by default', async () => {
      for (let index = 0; index < 101; index += 1) await ctx.store.enqueue(dispatchInput());
      expect(await ctx.store.claim({ workerId: 'w', limit: 101, leaseMs: ctx.shortLeaseMs })).toHaveLength(
        101,
      );
      await ctx.elapse(ctx.shortLeaseMs + 1);
      expect(await ctx.store.reclaimExpiredLeases()).toHaveLength(100);
      expect(await ctx.store.reclaimExpiredLeases()).toHaveLength(1);
    });

    it('reclaims at most limit dispatches per call', async () => {
      const leaseMs = ctx.shortLeaseMs;
      for (let index = 0; index < 5; index += 1) await ctx.store.enqueue(dispatchInput());
      await ctx.store.claim({ workerId: 'w', limit: 5, leaseMs });
      await ctx.elapse(leaseMs + 1);
      expect(await ctx.store.reclaimExpiredLeases({ limit: 2 })).toHaveLength(2);
      expect(await ctx.store.reclaimExpiredLeases({ limit: 10 })).toHaveLength(3);
    });
  });
}
