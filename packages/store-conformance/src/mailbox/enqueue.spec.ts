import { type MailboxStore, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function enqueueSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('enqueue', () => {
    it('stores a queued dispatch with the defaults and the store clock', async () => {
      const before = await ctx.store.now();
      const dispatch = await ctx.store.enqueue(dispatchInput());
      const after = await ctx.store.now();
      expectValid(runDispatchSchema, dispatch);
      expect(dispatch).toMatchObject({
        status: 'queued',
        priority: 128,
        maxAttempts: 3,
        attemptCount: 0,
        dispatchEpoch: 0,
      });
      expect(dispatch.availableAt).toBeGreaterThanOrEqual(before);
      expect(dispatch.availableAt).toBeLessThanOrEqual(after);
      expect(dispatch.claimToken).toBeUndefined();
      expect(expectValid(runDispatchSchema, await ctx.store.loadDispatch(dispatch.dispatchId))).toEqual(
        dispatch,
      );
    });

    it('keeps a given dispatch id and rejects a second dispatch with the same id', async () => {
      const dispatchId = uniqueId('dispatch');
      const dispatch = await ctx.store.enqueue(dispatchInput({ dispatchId }));
      expect(dispatch.dispatchId).toBe(dispatchId);
      await expectAwakenError(ctx.store.enqueue(dispatchInput({ dispatchId })), 'conflict');
    });

    it('rejects the id of a dispatch that ended, also once its dedupe key is free again', async () => {
      // a caller may name a dispatch after the work it does, so late copies of a request make none
      const threadId = uniqueId('thread');
      const dispatchId = uniqueId('dispatch');
      const first = await ctx.store.enqueue(dispatchInput({ threadId, dispatchId, dedupeKey: 'k' }));
      await ctx.store.ack(proofOf(await claimOne(ctx.store, first, ctx.shortLeaseMs)));
      await expectAwakenError(
        ctx.store.enqueue(dispatchInput({ threadId, dispatchId, dedupeKey: 'k' })),
        'conflict',
      );
      expect((await ctx.store.listDispatches(threadId)).items).toHaveLength(1);
    });

    it('stamps the thread current epoch', async () => {
      const threadId = uniqueId('thread');
      expect(await ctx.store.threadEpoch(threadId)).toBe(0);
      await ctx.store.interrupt(threadId);
      await ctx.store.interrupt(threadId);
      const dispatch = await ctx.store.enqueue(dispatchInput({ threadId }));
      expect(dispatch.dispatchEpoch).toBe(2);
    });

    it('keeps priority, availableAt and maxAttempts as given', async () => {
      const availableAt = (await ctx.store.now()) + 60_000;
      const dispatch = await ctx.store.enqueue(
        dispatchInput({ priority: 7, availableAt, maxAttempts: 9, dedupeKey: 'k' }),
      );
      expect(dispatch).toMatchObject({ priority: 7, availableAt, maxAttempts: 9, dedupeKey: 'k' });
    });

    it('rejects invalid input with validation_failed', async () => {
      await expectAwakenError(ctx.store.enqueue(dispatchInput({ priority: 256 })), 'validation_failed');
      await expectAwakenError(ctx.store.enqueue(dispatchInput({ threadId: '' })), 'validation_failed');
      await expectAwakenError(ctx.store.enqueue(dispatchInput({ maxAttempts: 0 })), 'validation_failed');
    });

    it('loads null for an unknown dispatch', async () => {
      expect(await ctx.store.loadDispatch(uniqueId('missing'))).toBeNull();
    });
  });
}
