import { type MailboxStore, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectInvalidField, expectValid } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

/** `enqueueAndClaim` (enqueue + claimDispatch + recordDispatchStart) and `ack` with a result. */
export function claimOnEnqueueSpec(ctx: SuiteContext<MailboxStore>): void {
  const claimInput = (overrides: Parameters<MailboxStore['enqueueAndClaim']>[0] | object = {}) => ({
    ...dispatchInput(),
    workerId: 'worker-a',
    leaseMs: ctx.shortLeaseMs,
    ...overrides,
  });

  describe('enqueueAndClaim', () => {
    it('stores the dispatch claimed by the worker, with its start recorded, as the store answered', async () => {
      const dispatch = await ctx.store.enqueueAndClaim(claimInput({ dispatchInstanceId: 'inst-1' }));
      expectValid(runDispatchSchema, dispatch);
      expect(dispatch).toMatchObject({
        status: 'claimed',
        claimedBy: 'worker-a',
        attemptCount: 0,
        dispatchEpoch: 0,
        dispatchInstanceId: 'inst-1',
        runStatus: 'running',
      });
      expect(dispatch.leaseUntil).toBe(dispatch.updatedAt + ctx.shortLeaseMs);
      expect(await ctx.store.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
      // the claim is a real one: fenced writes take its token, and no other claim is handed out
      expect(await ctx.store.claim({ workerId: 'worker-b', limit: 10, leaseMs: ctx.shortLeaseMs })).toEqual(
        [],
      );
      expect((await ctx.store.ack(proofOf(dispatch))).status).toBe('acked');
    });

    it('records no start without an instance id', async () => {
      const dispatch = await ctx.store.enqueueAndClaim(claimInput());
      expect(dispatch.status).toBe('claimed');
      expect(dispatch.dispatchInstanceId).toBeUndefined();
      expect(dispatch.runStatus).toBeUndefined();
    });

    it('leaves the dispatch queued behind the claim its thread has, for the next claim after it', async () => {
      const first = await ctx.store.enqueueAndClaim(claimInput());
      const second = await ctx.store.enqueueAndClaim(
        claimInput({ threadId: first.threadId, workerId: 'worker-b', dispatchInstanceId: 'inst-2' }),
      );
      expect(second).toMatchObject({ status: 'queued', threadId: first.threadId });
      expect(second.claimToken).toBeUndefined();
      expect(second.dispatchInstanceId).toBeUndefined();
      expect(await ctx.store.loadDispatch(second.dispatchId)).toEqual(second);
      await ctx.store.ack(proofOf(first));
      const next = await ctx.store.claim({ workerId: 'worker-c', limit: 10, leaseMs: ctx.shortLeaseMs });
      expect(next.map((dispatch) => dispatch.dispatchId)).toEqual([second.dispatchId]);
    });

    it('stamps the thread epoch and keeps the enqueue rules: an id taken, a dedupe key held', async () => {
      const threadId = dispatchInput().threadId;
      await ctx.store.interrupt(threadId);
      const dispatch = await ctx.store.enqueueAndClaim(claimInput({ threadId, dedupeKey: 'k' }));
      expect(dispatch).toMatchObject({ dispatchEpoch: 1, dedupeKey: 'k', status: 'claimed' });
      await expectAwakenError(
        ctx.store.enqueueAndClaim(claimInput({ dispatchId: dispatch.dispatchId })),
        'conflict',
      );
      await expectAwakenError(
        ctx.store.enqueueAndClaim(claimInput({ threadId, dedupeKey: 'k' })),
        'dedupe_conflict',
      );
      expect((await ctx.store.listDispatches(threadId)).items).toEqual([dispatch]);
    });

    it('refuses a bad worker or lease naming the field, and writes nothing', async () => {
      const input = claimInput();
      await expectInvalidField(ctx.store.enqueueAndClaim({ ...input, workerId: '' }), /workerId/);
      await expectInvalidField(ctx.store.enqueueAndClaim({ ...input, leaseMs: 0 }), /leaseMs/);
      await expectAwakenError(
        ctx.store.enqueueAndClaim({ ...input, leaseMs: Number.MAX_SAFE_INTEGER }),
        'validation_failed',
      );
      expect((await ctx.store.listDispatches(input.threadId)).items).toEqual([]);
    });
  });

  describe('ack with a result', () => {
    it('records the result and acks in one step, as recordRunResult then ack would', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      const acked = await ctx.store.ack({
        ...proofOf(claimed),
        result: {
          runId: claimed.runId,
          dispatchInstanceId: 'inst-1',
          status: 'done',
          termination: { type: 'natural_end' },
          response: 'it is sunny',
        },
      });
      expectValid(runDispatchSchema, acked);
      expect(acked).toMatchObject({
        status: 'acked',
        dispatchInstanceId: 'inst-1',
        runStatus: 'done',
        termination: { type: 'natural_end' },
        runResponse: 'it is sunny',
      });
      expect(acked.completedAt).toEqual(expect.any(Number));
      expect(acked.claimToken).toBeUndefined();
      expect(acked.leaseUntil).toBeUndefined();
      expect(await ctx.store.loadDispatch(claimed.dispatchId)).toEqual(acked);
    });

    it('replaces an earlier result completely', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      await ctx.store.recordRunResult({
        ...proofOf(claimed),
        result: {
          runId: claimed.runId,
          dispatchInstanceId: 'i',
          status: 'done',
          error: 'boom',
          response: 'r',
        },
      });
      const acked = await ctx.store.ack({
        ...proofOf(claimed),
        result: { runId: claimed.runId, dispatchInstanceId: 'i', status: 'waiting' },
      });
      expect(acked.runStatus).toBe('waiting');
      expect(acked.runError).toBeUndefined();
      expect(acked.runResponse).toBeUndefined();
    });

    it('writes nothing for a result of another run, or a stale claim', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      const result = { runId: 'another-run', dispatchInstanceId: 'i', status: 'done' as const };
      await expectAwakenError(ctx.store.ack({ ...proofOf(claimed), result }), 'validation_failed');
      expect(await ctx.store.loadDispatch(claimed.dispatchId)).toEqual(claimed);
      const own = { ...result, runId: claimed.runId };
      await expectAwakenError(
        ctx.store.ack({ dispatchId: claimed.dispatchId, claimToken: 'not-the-token', result: own }),
        'stale_claim',
      );
      await ctx.store.interrupt(claimed.threadId);
      await expectAwakenError(ctx.store.ack({ ...proofOf(claimed), result: own }), 'stale_claim');
      const stored = await ctx.store.loadDispatch(claimed.dispatchId);
      expect(stored).toMatchObject({ status: 'claimed' });
      expect(stored?.runStatus).toBeUndefined();
    });

    it('refuses a malformed result naming the field, and writes nothing', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      const result = { runId: claimed.runId, dispatchInstanceId: 'i', status: 'finished' };
      await expectInvalidField(ctx.store.ack({ ...proofOf(claimed), result } as never), /result/);
      expect(await ctx.store.loadDispatch(claimed.dispatchId)).toEqual(claimed);
    });
  });
}
