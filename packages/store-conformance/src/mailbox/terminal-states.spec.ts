import { type MailboxStore, type RunDispatch, TERMINAL_DISPATCH_STATUSES } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

type Terminal = (typeof TERMINAL_DISPATCH_STATUSES)[number];

/** Drives a fresh dispatch into `status`; returns it with the last claim token it had. */
async function reach(store: MailboxStore, status: Terminal, leaseMs: number): Promise<RunDispatch> {
  const queued = await store.enqueue(dispatchInput());
  if (status === 'cancelled')
    return { ...(await store.cancel(queued.dispatchId)), claimToken: 'never-claimed' };
  const claimed = await claimOne(store, queued, leaseMs);
  switch (status) {
    case 'acked':
      await store.ack(proofOf(claimed));
      break;
    case 'dead_letter':
      await store.deadLetter({ ...proofOf(claimed), error: 'permanent' });
      break;
    case 'superseded':
      await store.interrupt(claimed.threadId);
      await store.supersedeClaimed(claimed.dispatchId);
      break;
    default:
      throw new Error(`unexpected terminal status ${status}`);
  }
  return claimed;
}

export function terminalStatesSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('terminal states accept no move', () => {
    for (const status of TERMINAL_DISPATCH_STATUSES) {
      it(`keeps a ${status} dispatch ${status} whatever is tried`, async () => {
        const dispatch = await reach(ctx.store, status as Terminal, ctx.shortLeaseMs);
        const stored = await ctx.store.loadDispatch(dispatch.dispatchId);
        expect(stored?.status).toBe(status);
        const proof = proofOf(dispatch);
        await expectAwakenError(ctx.store.ack(proof), 'stale_claim');
        await expectAwakenError(ctx.store.nack({ ...proof, error: 'x' }), 'stale_claim');
        await expectAwakenError(ctx.store.cancel(dispatch.dispatchId), 'conflict');
        await expectAwakenError(ctx.store.supersedeClaimed(dispatch.dispatchId), 'conflict');
        const byId = { dispatchId: dispatch.dispatchId, workerId: 'w', leaseMs: ctx.shortLeaseMs };
        expect(await ctx.store.claimDispatch(byId)).toBeNull();
        expect(await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs })).toEqual([]);
        await ctx.elapse(ctx.shortLeaseMs + 1);
        expect(await ctx.store.reclaimExpiredLeases()).toEqual([]);
        expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(stored);
      });
    }
  });
}
