import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function purgeSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('purge terminal dispatches', () => {
    it('deletes terminal dispatches updated before the cutoff and keeps everything else', async () => {
      const threadId = uniqueId('thread');
      const acked = await claimOne(
        ctx.store,
        await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' })),
        60_000,
      );
      await ctx.store.ack(proofOf(acked));
      const cancelled = await ctx.store.enqueue(dispatchInput({ threadId }));
      await ctx.store.cancel(cancelled.dispatchId);
      const stillQueued = await ctx.store.enqueue(dispatchInput());
      const stillClaimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), 3_600_000);
      await ctx.elapse(20);
      const cutoff = await ctx.store.now();
      await ctx.elapse(20);
      const recent = await ctx.store.enqueue(dispatchInput());
      await ctx.store.cancel(recent.dispatchId);

      expect(await ctx.store.purgeTerminal({ olderThan: cutoff })).toBe(2);
      expect(await ctx.store.loadDispatch(acked.dispatchId)).toBeNull();
      expect(await ctx.store.loadDispatch(cancelled.dispatchId)).toBeNull();
      expect((await ctx.store.listDispatches(threadId)).items).toEqual([]);
      expect((await ctx.store.loadDispatch(stillQueued.dispatchId))?.status).toBe('queued');
      expect((await ctx.store.loadDispatch(stillClaimed.dispatchId))?.status).toBe('claimed');
      expect((await ctx.store.loadDispatch(recent.dispatchId))?.status).toBe('cancelled');
      expect(await ctx.store.purgeTerminal({ olderThan: cutoff })).toBe(0);
      const again = await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      expect(again.status).toBe('queued');
    });
  });
}
