import {
  type RunCreationWithLease,
  type RunLease,
  type ThreadRunStore,
  runCreationWithLease,
  runLeaseSchema,
} from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectInvalidField, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { newRunRecord, nextCheckpoint, threadWithRun, userMessage } from './fixtures';

const proof = (lease: RunLease) => ({ runId: lease.runId, owner: lease.owner, fence: lease.fence });

function joint(store: ThreadRunStore): RunCreationWithLease {
  const found = runCreationWithLease(store);
  if (!found) throw new Error('the store does not offer createRunWithLease');
  return found;
}

/** The optional `RunCreationWithLease` capability (every backend of this repository offers it). */
export function createRunWithLeaseSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('createRunWithLease', () => {
    it('creates the missing thread, the run and its first lease in one call', async () => {
      const threadId = uniqueId('thread');
      const record = newRunRecord(threadId);
      const created = await joint(ctx.store).createRunWithLease(record, {
        owner: 'worker-a',
        leaseMs: ctx.shortLeaseMs,
        createThread: true,
      });
      expect(created).toMatchObject({ run: record, threadCreated: true });
      expectValid(runLeaseSchema, created.lease);
      expect(created.lease).toMatchObject({ runId: record.runId, owner: 'worker-a', fence: 1 });
      expect(await ctx.store.getRun(record.runId)).toEqual(record);
      expect(await ctx.store.getThread(threadId)).toMatchObject({
        id: threadId,
        metadata: {},
        latestRunId: record.runId,
      });
      expect(await ctx.store.messageCount(threadId)).toBe(0);
      expect(await ctx.store.getThreadState(threadId)).toEqual({});
      expect((await ctx.store.listRunsByStatus('created')).items.map((run) => run.runId)).toContain(
        record.runId,
      );
      // held like a lease acquireRun granted
      await expectAwakenError(
        ctx.store.acquireRun(record.runId, { owner: 'worker-b', leaseMs: 10 }),
        'run_busy',
      );
      const renewed = await ctx.store.renewRun({ ...proof(created.lease), leaseMs: ctx.shortLeaseMs });
      expect(renewed).toMatchObject(proof(created.lease));
      expect(await ctx.store.releaseRun(proof(created.lease))).toBe(true);
      const next = await ctx.store.acquireRun(record.runId, { owner: 'worker-b', leaseMs: 10 });
      expect(next.fence).toBe(2);
    });

    it('lets the lease lapse on the store clock like any other', async () => {
      const record = newRunRecord(uniqueId('thread'));
      const created = await joint(ctx.store).createRunWithLease(record, {
        owner: 'worker-a',
        leaseMs: ctx.shortLeaseMs,
        createThread: true,
      });
      await ctx.elapse(ctx.shortLeaseMs + 1);
      const next = await ctx.store.acquireRun(record.runId, { owner: 'worker-b', leaseMs: ctx.shortLeaseMs });
      expect(next.fence).toBe(created.lease.fence + 1);
      await expectAwakenError(
        ctx.store.renewRun({ ...proof(created.lease), leaseMs: ctx.shortLeaseMs }),
        'stale_claim',
      );
    });

    it('uses an existing thread as is, with or without createThread', async () => {
      const { threadId } = await threadWithRun(ctx.store);
      await ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [userMessage('kept')] });
      for (const createThread of [true, false]) {
        const record = newRunRecord(threadId);
        const created = await joint(ctx.store).createRunWithLease(record, {
          owner: 'worker-a',
          leaseMs: 60_000,
          createThread,
        });
        expect(created.threadCreated).toBe(false);
        expect(await ctx.store.getThread(threadId)).toMatchObject({ latestRunId: record.runId });
      }
      expect(await ctx.store.messageCount(threadId)).toBe(1);
    });

    it('writes checkpoints with the granted fence only', async () => {
      const record = newRunRecord(uniqueId('thread'));
      const created = await joint(ctx.store).createRunWithLease(record, {
        owner: 'worker-a',
        leaseMs: 60_000,
        createThread: true,
      });
      const checkpoint = await nextCheckpoint(ctx.store, created.run, 'running', [userMessage('go')]);
      await expectAwakenError(ctx.store.commitCheckpoint(checkpoint), 'stale_claim');
      const stored = await ctx.store.commitCheckpoint({ ...checkpoint, fence: created.lease.fence });
      expect(stored.version).toBe(1);
    });

    it('refuses a missing thread without createThread (not_found) and an existing run (conflict), writing nothing', async () => {
      const threadId = uniqueId('thread');
      const record = newRunRecord(threadId);
      await expectAwakenError(
        joint(ctx.store).createRunWithLease(record, { owner: 'worker-a', leaseMs: 60_000 }),
        'not_found',
      );
      expect(await ctx.store.getThread(threadId)).toBeNull();
      expect(await ctx.store.getRun(record.runId)).toBeNull();

      const { run } = await threadWithRun(ctx.store);
      const elsewhere = uniqueId('thread');
      await expectAwakenError(
        joint(ctx.store).createRunWithLease(
          { ...run, threadId: elsewhere },
          { owner: 'worker-a', leaseMs: 60_000, createThread: true },
        ),
        'conflict',
      );
      expect(await ctx.store.getThread(elsewhere)).toBeNull();
      expect(await ctx.store.getRun(run.runId)).toEqual(run);
      // the existing run was not leased either
      const lease = await ctx.store.acquireRun(run.runId, { owner: 'worker-b', leaseMs: 10 });
      expect(lease.fence).toBe(1);
    });

    itChecksInput(ctx, 'refuses a bad record or lease input naming the field, writing nothing', async () => {
      const threadId = uniqueId('thread');
      const record = newRunRecord(threadId);
      await expectInvalidField(
        joint(ctx.store).createRunWithLease(
          { ...record, version: 1 },
          { owner: 'worker-a', leaseMs: 60_000, createThread: true },
        ),
        /version/,
      );
      await expectInvalidField(
        joint(ctx.store).createRunWithLease(record, { owner: 'worker-a', leaseMs: 0, createThread: true }),
        /leaseMs/,
      );
      await expectInvalidField(
        joint(ctx.store).createRunWithLease(record, { owner: '', leaseMs: 60_000, createThread: true }),
        /owner/,
      );
      expect(await ctx.store.getThread(threadId)).toBeNull();
      expect(await ctx.store.getRun(record.runId)).toBeNull();
    });
  });
}
