import { type MailboxStore, runDispatchSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { claimOne, dispatchInput, proofOf } from './fixtures';

export function runtimeProjectionSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('runtime projection', () => {
    it('records the dispatch start without leaving the claim', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      const started = await ctx.store.recordDispatchStart({
        ...proofOf(claimed),
        dispatchInstanceId: 'inst-1',
      });
      expectValid(runDispatchSchema, started);
      expect(started).toMatchObject({
        status: 'claimed',
        dispatchInstanceId: 'inst-1',
        runStatus: 'running',
      });
    });

    it('records the run result apart from the ack, and the ack keeps it', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      const recorded = await ctx.store.recordRunResult({
        ...proofOf(claimed),
        result: {
          runId: claimed.runId,
          dispatchInstanceId: 'inst-1',
          status: 'waiting',
          termination: { type: 'suspended' },
          response: 'waiting for approval',
        },
      });
      expectValid(runDispatchSchema, recorded);
      expect(recorded).toMatchObject({
        status: 'claimed',
        runStatus: 'waiting',
        termination: { type: 'suspended' },
        runResponse: 'waiting for approval',
      });
      expect(recorded.completedAt).toEqual(expect.any(Number));
      const acked = await ctx.store.ack(proofOf(claimed));
      expectValid(runDispatchSchema, acked);
      expect(acked).toMatchObject({
        status: 'acked',
        runStatus: 'waiting',
        runResponse: 'waiting for approval',
      });
    });

    it('replaces an earlier result completely: fields the new one lacks are removed', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      await ctx.store.recordRunResult({
        ...proofOf(claimed),
        result: {
          runId: claimed.runId,
          dispatchInstanceId: 'inst-1',
          status: 'done',
          termination: { type: 'error', message: 'boom' },
          response: 'partial',
          error: 'boom',
        },
      });
      const replaced = await ctx.store.recordRunResult({
        ...proofOf(claimed),
        result: { runId: claimed.runId, dispatchInstanceId: 'inst-2', status: 'waiting' },
      });
      expect(replaced).toMatchObject({ dispatchInstanceId: 'inst-2', runStatus: 'waiting' });
      expect(replaced.termination).toBeUndefined();
      expect(replaced.runResponse).toBeUndefined();
      expect(replaced.runError).toBeUndefined();
      expect(await ctx.store.loadDispatch(claimed.dispatchId)).toEqual(replaced);
    });

    it('rejects a result for another run with validation_failed', async () => {
      const claimed = await claimOne(ctx.store, await ctx.store.enqueue(dispatchInput()), ctx.shortLeaseMs);
      await expectAwakenError(
        ctx.store.recordRunResult({
          ...proofOf(claimed),
          result: { runId: 'another-run', dispatchInstanceId: 'i', status: 'done' },
        }),
        'validation_failed',
      );
    });
  });
}
