import { type MailboxStore, mailboxInterruptSchema, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function interruptSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('interrupt', () => {
    it('bumps the epoch, supersedes every queued dispatch and returns the active claim', async () => {
      const threadId = uniqueId('thread');
      const active = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput({ threadId })), 60_000);
      const queued = await ctx.store.enqueue(dispatchInput({ threadId }));
      const delayed = await ctx.store.enqueue(
        dispatchInput({ threadId, availableAt: (await ctx.store.now()) + 3_600_000 }),
      );
      const bystander = await ctx.store.enqueue(dispatchInput());
      const result = await ctx.store.interrupt(threadId);
      expectValid(mailboxInterruptSchema, result);
      expect(result.newDispatchEpoch).toBe(1);
      expect(result.supersededCount).toBe(2);
      expect(result.activeDispatch?.dispatchId).toBe(active.dispatchId);
      expect(result.activeDispatch?.status).toBe('claimed');
      expect(await ctx.store.threadEpoch(threadId)).toBe(1);
      for (const dispatch of [queued, delayed]) {
        const stored = expectValid(runDispatchSchema, await ctx.store.loadDispatch(dispatch.dispatchId));
        expect(stored.status).toBe('superseded');
      }
      expect((await ctx.store.loadDispatch(bystander.dispatchId))?.status).toBe('queued');
      expect(await ctx.store.threadEpoch(bystander.threadId)).toBe(0);
    });

    it('interrupts an unknown thread: epoch 1, nothing superseded, no active claim', async () => {
      const result = await ctx.store.interrupt(uniqueId('thread'));
      expect(result).toEqual({ newDispatchEpoch: 1, supersededCount: 0 });
    });

    it('lets a new dispatch run once the interrupted claim is superseded', async () => {
      const threadId = uniqueId('thread');
      const old = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput({ threadId })), 60_000);
      await ctx.store.interrupt(threadId);
      const fresh = await ctx.store.enqueue(dispatchInput({ threadId }));
      expect(fresh.dispatchEpoch).toBe(1);
      expect(await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs })).toEqual([]);
      const superseded = await ctx.store.supersedeClaimed(old.dispatchId);
      expectValid(runDispatchSchema, superseded);
      expect(superseded.status).toBe('superseded');
      const [next] = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(next?.dispatchId).toBe(fresh.dispatchId);
      expect((await ctx.store.ack(proofOf(next!))).status).toBe('acked');
    });

    it('counts only queued dispatches of the current interrupt', async () => {
      const threadId = uniqueId('thread');
      await ctx.store.enqueue(dispatchInput({ threadId }));
      expect((await ctx.store.interrupt(threadId)).supersededCount).toBe(1);
      const second = await ctx.store.interrupt(threadId);
      expect(second).toEqual({ newDispatchEpoch: 2, supersededCount: 0 });
    });
  });
}
