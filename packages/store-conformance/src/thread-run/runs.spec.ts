import { type ThreadRunStore, runRecordSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { newRunRecord, nextCheckpoint } from './fixtures';

export function runsSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('run records', () => {
    it('creates a run, reads it back and points the thread latestRunId at it', async () => {
      const thread = await ctx.store.createThread({});
      const record = newRunRecord(thread.id, {
        state: { __run: { phase: 'x' } },
        origin: 'internal',
        parentRunId: 'p',
        parentCallId: 'call_1',
        agentPath: ['assistant', 'janitor'],
        agentPin: {
          hash: 'pin-hash',
          fields: { instructions: 'i1', tools: 't1' },
          toolHashes: { lookup: 'l1' },
        },
      });
      const created = await ctx.store.createRun(record);
      expect(created).toEqual(record);
      expect(expectValid(runRecordSchema, await ctx.store.getRun(record.runId))).toEqual(record);
      expect((await ctx.store.getThread(thread.id))?.latestRunId).toBe(record.runId);
    });

    it('rejects a second run with the same id with conflict', async () => {
      const thread = await ctx.store.createThread({});
      const record = newRunRecord(thread.id);
      await ctx.store.createRun(record);
      await expectAwakenError(ctx.store.createRun(record), 'conflict');
    });

    it('rejects a new run whose version is not 0 with validation_failed', async () => {
      const thread = await ctx.store.createThread({});
      const record = newRunRecord(thread.id, { version: 3 });
      await expectAwakenError(ctx.store.createRun(record), 'validation_failed');
      expect(await ctx.store.getRun(record.runId)).toBeNull();
    });

    it('returns null for an unknown run', async () => {
      expect(await ctx.store.getRun(uniqueId('missing'))).toBeNull();
    });

    it('lists the runs of a thread newest first, filtered by status, in pages', async () => {
      const thread = await ctx.store.createThread({});
      const runs = [];
      for (let index = 0; index < 5; index += 1) {
        runs.push(await ctx.store.createRun(newRunRecord(thread.id, { createdAt: 1_000 + index })));
      }
      const other = await ctx.store.createThread({});
      await ctx.store.createRun(newRunRecord(other.id));
      await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, runs[1]!, 'running'));
      const all = await ctx.store.listRuns(thread.id);
      expect(all.items.map((run) => run.runId)).toEqual(runs.map((run) => run.runId).reverse());
      for (const run of all.items) expectValid(runRecordSchema, run);
      const running = await ctx.store.listRuns(thread.id, { status: ['running'] });
      expect(running.items.map((run) => run.runId)).toEqual([runs[1]!.runId]);
      const first = await ctx.store.listRuns(thread.id, { limit: 2 });
      expect(first.items).toHaveLength(2);
      const second = await ctx.store.listRuns(thread.id, { limit: 2, cursor: first.nextCursor });
      const third = await ctx.store.listRuns(thread.id, { limit: 2, cursor: second.nextCursor });
      expect(third.nextCursor).toBeUndefined();
      expect([...first.items, ...second.items, ...third.items].map((run) => run.runId)).toEqual(
        all.items.map((run) => run.runId),
      );
    });

    it('keeps the active agent and the handoffs of a run through createRun and a checkpoint', async () => {
      const thread = await ctx.store.createThread({});
      const first = { fromAgentId: 'triage', toAgentId: 'billing', toolCallId: 'c1', step: 1, at: 1_000 };
      const created = await ctx.store.createRun(
        newRunRecord(thread.id, { agentId: 'triage', activeAgentId: 'billing', handoffs: [first] }),
      );
      expect(await ctx.store.getRun(created.runId)).toMatchObject({
        agentId: 'triage',
        activeAgentId: 'billing',
        handoffs: [first],
      });
      const second = { ...first, fromAgentId: 'billing', toAgentId: 'support', step: 2, reason: 'refund' };
      const checkpoint = await nextCheckpoint(ctx.store, created, 'running');
      const stored = await ctx.store.commitCheckpoint({
        ...checkpoint,
        run: { ...checkpoint.run, activeAgentId: 'support', handoffs: [first, second] },
      });
      const read = expectValid(runRecordSchema, await ctx.store.getRun(created.runId));
      expect(read).toEqual(stored);
      expect(read).toMatchObject({ agentId: 'triage', activeAgentId: 'support', handoffs: [first, second] });
      const listed = await ctx.store.listRuns(thread.id);
      expect(listed.items[0]).toMatchObject({ activeAgentId: 'support', handoffs: [first, second] });
    });

    it('rejects an invalid run record with validation_failed', async () => {
      const thread = await ctx.store.createThread({});
      await expectAwakenError(
        ctx.store.createRun({ ...newRunRecord(thread.id), steps: -1 }),
        'validation_failed',
      );
    });
  });
}
