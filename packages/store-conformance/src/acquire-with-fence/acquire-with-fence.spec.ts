import {
  type AcquireWithFence,
  type RunEventLog,
  type ThreadRunStore,
  jointAcquirer,
  runLeaseSchema,
} from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { threadWithRun } from '../thread-run/fixtures';

/** A thread-run store and an event log on the same backend (e.g. `create*Stores`). */
export interface LeaseAndLogStores {
  threadRuns: ThreadRunStore;
  eventLog: RunEventLog;
}

function joint({ threadRuns, eventLog }: LeaseAndLogStores): AcquireWithFence {
  const found = jointAcquirer(threadRuns, eventLog);
  if (!found) throw new Error('the store does not offer acquireRunWithFence for its own event log');
  return found;
}

/** The optional `AcquireWithFence` capability (every backend of this repository offers it). */
export function acquireWithFenceSpec(ctx: SuiteContext<LeaseAndLogStores>): void {
  describe('acquireRunWithFence', () => {
    it('takes the lease, raises the log to its fence and reads the run, as the three calls would', async () => {
      const { threadRuns, eventLog } = ctx.store;
      const { run } = await threadWithRun(threadRuns);
      const taken = await joint(ctx.store).acquireRunWithFence(run.runId, { owner: 'a', leaseMs: 60_000 });
      expectValid(runLeaseSchema, taken.lease);
      expect(taken.lease).toMatchObject({ runId: run.runId, owner: 'a', fence: 1 });
      expect(taken.lastSeq).toBe(0);
      expect(taken.run).toEqual(await threadRuns.getRun(run.runId));
      // the lease is held like acquireRun's; the log is at its fence (a lower writer is shut out)
      await expectAwakenError(threadRuns.acquireRun(run.runId, { owner: 'b', leaseMs: 10 }), 'run_busy');
      await expectAwakenError(eventLog.append(run.runId, [], { fence: 0 }), 'stale_claim');
      await eventLog.append(run.runId, [], { fence: 1 });
      const proof = { runId: run.runId, owner: 'a', fence: 1 };
      expect(await threadRuns.releaseRun(proof)).toBe(true);
      const next = await joint(ctx.store).acquireRunWithFence(run.runId, { owner: 'b', leaseMs: 60_000 });
      expect(next.lease.fence).toBe(2);
      await expectAwakenError(eventLog.append(run.runId, [], { fence: 1 }), 'stale_claim');
      // the checkpoint fence moved with the lease
      await expectAwakenError(threadRuns.renewRun({ ...proof, leaseMs: 10 }), 'stale_claim');
    });

    it('refuses a run another holds (run_busy) and writes nothing', async () => {
      const { threadRuns, eventLog } = ctx.store;
      const { run } = await threadWithRun(threadRuns);
      const held = await threadRuns.acquireRun(run.runId, { owner: 'a', leaseMs: 60_000 });
      await expectAwakenError(
        joint(ctx.store).acquireRunWithFence(run.runId, { owner: 'b', leaseMs: 60_000 }),
        'run_busy',
      );
      // the holder's fence still writes: the log was not raised
      await eventLog.append(run.runId, [], { fence: held.fence });
      expect(await threadRuns.releaseRun({ runId: run.runId, owner: 'a', fence: held.fence })).toBe(true);
    });

    it('refuses an unknown run (not_found)', async () => {
      await expectAwakenError(
        joint(ctx.store).acquireRunWithFence(uniqueId('run'), { owner: 'a', leaseMs: 60_000 }),
        'not_found',
      );
    });

    it('refuses when the log has seen a higher fence (stale_claim) and takes no lease', async () => {
      const { threadRuns, eventLog } = ctx.store;
      const { run } = await threadWithRun(threadRuns);
      await eventLog.raiseFence(run.runId, 5);
      await expectAwakenError(
        joint(ctx.store).acquireRunWithFence(run.runId, { owner: 'a', leaseMs: 60_000 }),
        'stale_claim',
      );
      // no lease was taken and the run's fence did not move
      const lease = await threadRuns.acquireRun(run.runId, { owner: 'b', leaseMs: 60_000 });
      expect(lease.fence).toBe(1);
    });

    // (a trusted view takes the runtime's own values unparsed)
    if (!ctx.trusted)
      it('checks owner and leaseMs as acquireRun does (validation_failed)', async () => {
        const { run } = await threadWithRun(ctx.store.threadRuns);
        await expectAwakenError(
          joint(ctx.store).acquireRunWithFence(run.runId, { owner: '', leaseMs: 60_000 }),
          'validation_failed',
        );
        await expectAwakenError(
          joint(ctx.store).acquireRunWithFence(run.runId, { owner: 'a', leaseMs: -1 }),
          'validation_failed',
        );
      });
  });
}
