import type { MailboxStore, RunDispatch } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { fulfilled } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { dispatchInput, proofOf } from './fixtures';

async function clients(ctx: SuiteContext<MailboxStore>, count: number): Promise<MailboxStore[]> {
  const stores = [ctx.store];
  while (stores.length < count) stores.push(await ctx.peer());
  return stores;
}

export function concurrencySpec(ctx: SuiteContext<MailboxStore>): void {
  describe('concurrency', () => {
    it('loses nothing under 200 concurrent enqueues', async () => {
      const stores = await clients(ctx, 4);
      const threads = [uniqueId('thread'), uniqueId('thread')];
      const enqueued = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          stores[index % stores.length]!.enqueue(dispatchInput({ threadId: threads[index % 2]! })),
        ),
      );
      expect(new Set(enqueued.map((dispatch) => dispatch.dispatchId)).size).toBe(200);
      for (const threadId of threads) {
        const listed = await ctx.store.listDispatches(threadId, { limit: 1000 });
        expect(listed.items).toHaveLength(100);
      }
    });

    it('gives exactly one of 50 concurrent claimers the one claim of a thread', async () => {
      const stores = await clients(ctx, 5);
      const threadId = uniqueId('thread');
      for (let index = 0; index < 5; index += 1) await ctx.store.enqueue(dispatchInput({ threadId }));
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          stores[index % stores.length]!.claim({ workerId: `w${index}`, limit: 5, leaseMs: 60_000 }),
        ),
      );
      const winners = results.filter((claimed) => claimed.length > 0);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toHaveLength(1);
      expect((await ctx.store.listDispatches(threadId, { status: ['claimed'] })).items).toHaveLength(1);
    });

    it('hands every dispatch to exactly one of many concurrent claimers, each acked once', async () => {
      const stores = await clients(ctx, 5);
      const ids = new Set<string>();
      for (let index = 0; index < 60; index += 1)
        ids.add((await ctx.store.enqueue(dispatchInput())).dispatchId);
      const claimedBy = new Map<string, number>();
      await Promise.all(
        Array.from({ length: 20 }, async (_, worker) => {
          const store = stores[worker % stores.length]!;
          for (;;) {
            const batch: RunDispatch[] = await store.claim({
              workerId: `w${worker}`,
              limit: 2,
              leaseMs: 60_000,
            });
            if (batch.length === 0) return;
            for (const dispatch of batch) {
              claimedBy.set(dispatch.dispatchId, (claimedBy.get(dispatch.dispatchId) ?? 0) + 1);
              await store.ack(proofOf(dispatch));
            }
          }
        }),
      );
      expect([...claimedBy.keys()].sort()).toEqual([...ids].sort());
      expect([...claimedBy.values()].every((count) => count === 1)).toBe(true);
    });

    it('lets exactly one of 20 concurrent claims by id win', async () => {
      const stores = await clients(ctx, 4);
      const dispatch = await ctx.store.enqueue(dispatchInput());
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          stores[index % stores.length]!.claimDispatch({
            dispatchId: dispatch.dispatchId,
            workerId: `w${index}`,
            leaseMs: 60_000,
          }),
        ),
      );
      expect(results.filter((result) => result !== null)).toHaveLength(1);
    });

    it('accepts one of two concurrent acks of the same claim', async () => {
      const stores = await clients(ctx, 2);
      await ctx.store.enqueue(dispatchInput());
      const [claimed] = await ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
      const results = await Promise.allSettled(stores.map((store) => store.ack(proofOf(claimed!))));
      expect(fulfilled(results)).toHaveLength(1);
    });
  });
}
