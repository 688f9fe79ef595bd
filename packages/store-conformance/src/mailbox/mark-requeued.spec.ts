import type { MailboxStore } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

async function deadLetter(store: MailboxStore, leaseMs: number) {
  const claimed = await claimOne(store, await store.enqueue(dispatchInput()), leaseMs);
  return store.deadLetter({ ...proofOf(claimed), error: 'permanent' });
}

export function markRequeuedSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('markRequeued', () => {
    it('reserves the requeue ids of a dead letter once, whoever asks after', async () => {
      const dead = await deadLetter(ctx.store, ctx.shortLeaseMs);
      const [first, second] = await Promise.all([
        ctx.store.markRequeued({ dispatchId: dead.dispatchId, runId: 'run-a', requeueDispatchId: 'd-a' }),
        ctx.store.markRequeued({ dispatchId: dead.dispatchId, runId: 'run-b', requeueDispatchId: 'd-b' }),
      ]);
      expect(second.requeuedRunId).toBe(first.requeuedRunId);
      expect(second.requeuedDispatchId).toBe(first.requeuedDispatchId);
      const again = await ctx.store.markRequeued({
        dispatchId: dead.dispatchId,
        runId: 'run-c',
        requeueDispatchId: 'd-c',
      });
      expect(again.requeuedRunId).toBe(first.requeuedRunId);
      const stored = await ctx.store.loadDispatch(dead.dispatchId);
      expect(stored).toMatchObject({
        status: 'dead_letter',
        requeuedRunId: first.requeuedRunId,
        requeuedDispatchId: first.requeuedDispatchId,
        updatedAt: dead.updatedAt,
      });
    });

    it('refuses a dispatch that is not a dead letter, and an unknown one', async () => {
      const queued = await ctx.store.enqueue(dispatchInput());
      const mark = { runId: 'run-a', requeueDispatchId: 'd-a' };
      await expectAwakenError(ctx.store.markRequeued({ dispatchId: queued.dispatchId, ...mark }), 'conflict');
      await expectAwakenError(
        ctx.store.markRequeued({ dispatchId: 'no-such-dispatch', ...mark }),
        'not_found',
      );
      expect((await ctx.store.loadDispatch(queued.dispatchId))?.requeuedRunId).toBeUndefined();
    });
  });
}
