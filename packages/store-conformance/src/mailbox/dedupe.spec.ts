import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function dedupeSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('dedupe', () => {
    it('rejects a dedupe key held by a queued dispatch of the same thread and writes nothing', async () => {
      const threadId = uniqueId('thread');
      await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      await expectAwakenError(
        ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' })),
        'dedupe_conflict',
      );
      expect((await ctx.store.listDispatches(threadId)).items).toHaveLength(1);
    });

    it('rejects a dedupe key held by a claimed dispatch', async () => {
      const threadId = uniqueId('thread');
      const first = await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      await claimOne(ctx.store, first, ctx.shortLeaseMs);
      await expectAwakenError(
        ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' })),
        'dedupe_conflict',
      );
    });

    it('keeps dedupe keys of threads apart whatever characters ids contain', async () => {
      const threadId = uniqueId('thread');
      await ctx.store.enqueue(dispatchInput({ threadId: `${threadId}\u0000a`, dedupeKey: 'b' }));
      await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'a\u0000b' }));
      await ctx.store.enqueue(dispatchInput({ threadId: `${threadId}:x`, dedupeKey: 'k' }));
      await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'x:k' }));
      expect((await ctx.store.listDispatches(threadId)).items).toHaveLength(2);
    });

    it('accepts the same dedupe key on another thread', async () => {
      await ctx.store.enqueue(dispatchInput({ dedupeKey: 'k' }));
      const other = await ctx.store.enqueue(dispatchInput({ dedupeKey: 'k' }));
      expect(other.status).toBe('queued');
    });

    it('accepts the key again once the holder is acked or cancelled', async () => {
      const threadId = uniqueId('thread');
      const first = await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      const claimed = await claimOne(ctx.store, first, ctx.shortLeaseMs);
      await ctx.store.ack(proofOf(claimed));
      const second = await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      await ctx.store.cancel(second.dispatchId);
      const third = await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      expect(third.status).toBe('queued');
    });

    it('frees the key of a dispatch superseded by an interrupt', async () => {
      const threadId = uniqueId('thread');
      await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      await ctx.store.interrupt(threadId);
      const again = await ctx.store.enqueue(dispatchInput({ threadId, dedupeKey: 'k' }));
      expect(again.dispatchEpoch).toBe(1);
    });
  });
}
