import { AwakenError, type RunLease, type ThreadRunStore, runLeaseSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid, fulfilled } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { nextCheckpoint, threadWithRun, userMessage } from './fixtures';

const proof = (lease: RunLease) => ({ runId: lease.runId, owner: lease.owner, fence: lease.fence });

export function runLeaseSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('run leases', () => {
    it('grants fence 1 first and refuses a second owner with run_busy while the lease is live', async () => {
      const { run } = await threadWithRun(ctx.store);
      const lease = await ctx.store.acquireRun(run.runId, { owner: 'worker-a', leaseMs: ctx.shortLeaseMs });
      expectValid(runLeaseSchema, lease);
      expect(lease).toMatchObject({ runId: run.runId, owner: 'worker-a', fence: 1 });
      const other = ctx.store.acquireRun(run.runId, { owner: 'worker-b', leaseMs: ctx.shortLeaseMs });
      await expectAwakenError(other, 'run_busy');
      const busy = (await other.then(
        () => undefined,
        (error: unknown) => error,
      )) as AwakenError;
      expect(busy.retryable).toBe(true);
      expect(busy.retryAfterMs).toBeGreaterThan(0);
      // even the same owner does not hold a run twice
      await expectAwakenError(
        ctx.store.acquireRun(run.runId, { owner: 'worker-a', leaseMs: 10 }),
        'run_busy',
      );
    });

    it('hands a lapsed lease to the next owner with a higher fence, and fences the old holder out', async () => {
      const { run } = await threadWithRun(ctx.store);
      const first = await ctx.store.acquireRun(run.runId, { owner: 'worker-a', leaseMs: ctx.shortLeaseMs });
      await ctx.elapse(ctx.shortLeaseMs + 1);
      const second = await ctx.store.acquireRun(run.runId, { owner: 'worker-b', leaseMs: ctx.shortLeaseMs });
      expect(second.fence).toBe(first.fence + 1);
      await expectAwakenError(
        ctx.store.renewRun({ ...proof(first), leaseMs: ctx.shortLeaseMs }),
        'stale_claim',
      );
      expect(await ctx.store.releaseRun(proof(first))).toBe(false);
      await expectAwakenError(
        ctx.store.acquireRun(run.runId, { owner: 'worker-c', leaseMs: 10 }),
        'run_busy',
      );
    });

    it('renews a held lease, also after it lapsed when nobody took the run', async () => {
      const { run } = await threadWithRun(ctx.store);
      const lease = await ctx.store.acquireRun(run.runId, { owner: 'worker-a', leaseMs: ctx.shortLeaseMs });
      await ctx.elapse(ctx.shortLeaseMs + 1);
      const renewed = await ctx.store.renewRun({ ...proof(lease), leaseMs: ctx.shortLeaseMs * 10 });
      expect(renewed).toMatchObject(proof(lease));
      expect(renewed.leaseUntil).toBeGreaterThan(lease.leaseUntil);
      await expectAwakenError(
        ctx.store.acquireRun(run.runId, { owner: 'worker-b', leaseMs: 10 }),
        'run_busy',
      );
    });

    it('releases a lease early: the next acquisition succeeds at once with a higher fence', async () => {
      const { run } = await threadWithRun(ctx.store);
      const lease = await ctx.store.acquireRun(run.runId, { owner: 'worker-a', leaseMs: 60_000 });
      expect(await ctx.store.releaseRun(proof(lease))).toBe(true);
      expect(await ctx.store.releaseRun(proof(lease))).toBe(false);
      await expectAwakenError(ctx.store.renewRun({ ...proof(lease), leaseMs: 1_000 }), 'stale_claim');
      const next = await ctx.store.acquireRun(run.runId, { owner: 'worker-b', leaseMs: 60_000 });
      expect(next.fence).toBe(lease.fence + 1);
    });

    it('writes a checkpoint only with the current fence; a fenced-out writer changes nothing', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const unfenced = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running'));
      const first = await ctx.store.acquireRun(run.runId, { owner: 'worker-a', leaseMs: 60_000 });
      const stale = await nextCheckpoint(ctx.store, unfenced, 'running', [userMessage('late')]);
      await expectAwakenError(ctx.store.commitCheckpoint(stale), 'stale_claim');
      const written = await ctx.store.commitCheckpoint({ ...stale, fence: first.fence });
      await ctx.store.releaseRun(proof(first));
      const second = await ctx.store.acquireRun(run.runId, { owner: 'worker-b', leaseMs: 60_000 });
      const fencedOut = await nextCheckpoint(ctx.store, written, 'done', [userMessage('zombie')]);
      await expectAwakenError(
        ctx.store.commitCheckpoint({ ...fencedOut, fence: first.fence }),
        'stale_claim',
      );
      expect(await ctx.store.getRun(run.runId)).toEqual(written);
      expect(await ctx.store.messageCount(threadId)).toBe(1);
      await ctx.store.commitCheckpoint({ ...fencedOut, fence: second.fence });
      expect((await ctx.store.getRun(run.runId))?.status).toBe('done');
    });

    it('gives exactly one of many concurrent acquirers the run', async () => {
      const { run } = await threadWithRun(ctx.store);
      const clients = [ctx.store, await ctx.peer(), await ctx.peer()];
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, index) =>
          clients[index % clients.length]!.acquireRun(run.runId, { owner: `w${index}`, leaseMs: 60_000 }),
        ),
      );
      const winners = fulfilled(results);
      expect(winners).toHaveLength(1);
      expect(winners[0]?.fence).toBe(1);
      for (const result of results) {
        if (result.status === 'rejected') expect(AwakenError.hasCode(result.reason, 'run_busy')).toBe(true);
      }
    });

    it('answers unknown runs with not_found (release: false)', async () => {
      const missing = uniqueId('run');
      await expectAwakenError(ctx.store.acquireRun(missing, { owner: 'w', leaseMs: 100 }), 'not_found');
      await expectAwakenError(
        ctx.store.renewRun({ runId: missing, owner: 'w', fence: 1, leaseMs: 100 }),
        'not_found',
      );
      expect(await ctx.store.releaseRun({ runId: missing, owner: 'w', fence: 1 })).toBe(false);
    });

    itChecksInput(ctx, 'rejects bad lease input with validation_failed', async () => {
      const { run } = await threadWithRun(ctx.store);
      for (const leaseMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 86_400_001]) {
        await expectAwakenError(
          ctx.store.acquireRun(run.runId, { owner: 'w', leaseMs }),
          'validation_failed',
        );
      }
      await expectAwakenError(
        ctx.store.acquireRun(run.runId, { owner: '', leaseMs: 100 }),
        'validation_failed',
      );
      const lease = await ctx.store.acquireRun(run.runId, { owner: 'w', leaseMs: 60_000 });
      await expectAwakenError(ctx.store.renewRun({ ...proof(lease), leaseMs: 0 }), 'validation_failed');
      await expectAwakenError(
        ctx.store.renewRun({ ...proof(lease), fence: 0, leaseMs: 10 }),
        'validation_failed',
      );
      await expectAwakenError(ctx.store.releaseRun({ ...proof(lease), owner: '' }), 'validation_failed');
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running');
      await expectAwakenError(ctx.store.commitCheckpoint({ ...checkpoint, fence: -1 }), 'validation_failed');
      expect(await ctx.store.releaseRun(proof(lease))).toBe(true);
    });
  });
}
