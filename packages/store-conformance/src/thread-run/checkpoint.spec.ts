import { type ThreadRunStore, messageRecordSchema, runRecordSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { assistantMessage, nextCheckpoint, threadWithRun, userMessage } from './fixtures';

export function checkpointSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('checkpoints', () => {
    it('writes the message delta, the run record and the thread state in one step', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', [
        userMessage('hello', { runId: run.runId }),
        assistantMessage('hi', run.runId, 1),
      ]);
      const stored = await ctx.store.commitCheckpoint({
        ...checkpoint,
        run: { ...checkpoint.run, state: { __tool_call_scope: { c1: { status: 'succeeded' } } } },
        threadState: { memory: { facts: 1 } },
      });
      expect(stored.version).toBe(1);
      const read = expectValid(runRecordSchema, await ctx.store.getRun(run.runId));
      expect(read).toEqual(stored);
      expect(read.state).toEqual({ __tool_call_scope: { c1: { status: 'succeeded' } } });
      const messages = await ctx.store.readMessages(threadId);
      expect(messages.map((record) => record.seq)).toEqual([1, 2]);
      for (const record of messages) expectValid(messageRecordSchema, record);
      expect(await ctx.store.getThreadState(threadId)).toEqual({ memory: { facts: 1 } });
    });

    it("keeps a child run's parent fields and a nested waiting ticket through a checkpoint", async () => {
      const { run } = await threadWithRun(ctx.store);
      const running = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running'));
      const checkpoint = await nextCheckpoint(ctx.store, running, 'waiting');
      const nested = {
        runId: 'child-run',
        ticketId: 'permission:1:del',
        toolCallId: 'del',
        toolName: 'delete_file',
        arguments: { path: '/tmp/report.txt' },
        agentPath: ['assistant', 'janitor'],
      };
      const ticket = {
        ticketId: 'sub:child-run:permission:1:del',
        toolCallId: 'delegate',
        toolName: 'janitor',
        action: 'confirm',
        message: 'janitor › delete_file: Allow?',
        resumeMode: 'replay_tool_call' as const,
        requiresDistinctApprover: true as const,
        nested,
      };
      const child = {
        ...checkpoint.run,
        origin: 'internal' as const,
        parentRunId: 'parent-run',
        parentCallId: 'delegate',
        agentPath: ['assistant', 'janitor'],
        waiting: { reason: 'tool_call_suspended' as const, ticketIds: [ticket.ticketId], tickets: [ticket] },
      };
      const stored = await ctx.store.commitCheckpoint({ ...checkpoint, run: child });
      const read = expectValid(runRecordSchema, await ctx.store.getRun(run.runId));
      expect(read).toEqual(stored);
      expect(read).toMatchObject({ parentCallId: 'delegate', agentPath: ['assistant', 'janitor'] });
      expect(read.waiting?.tickets[0]).toEqual(ticket);
    });

    it('keeps the thread state when a checkpoint carries none', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const first = await nextCheckpoint(ctx.store, run, 'running');
      const stored = await ctx.store.commitCheckpoint({ ...first, threadState: { k: 1 } });
      await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, stored, 'done'));
      expect(await ctx.store.getThreadState(threadId)).toEqual({ k: 1 });
    });

    it('rejects a stale run version with stale_version and writes nothing', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const stored = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running'));
      const stale = await nextCheckpoint(ctx.store, run, 'running', [userMessage('late')]);
      await expectAwakenError(
        ctx.store.commitCheckpoint({ ...stale, threadState: { x: 1 } }),
        'stale_version',
      );
      const skipping = await nextCheckpoint(ctx.store, { ...stored, version: stored.version + 1 }, 'done');
      await expectAwakenError(ctx.store.commitCheckpoint(skipping), 'stale_version');
      expect(await ctx.store.getRun(run.runId)).toEqual(stored);
      expect(await ctx.store.messageCount(threadId)).toBe(0);
      expect(await ctx.store.getThreadState(threadId)).toEqual({});
    });

    it('rejects a stale message count with stale_append and writes nothing', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', [userMessage('mine')]);
      await ctx.store.appendMessages(threadId, { expectedLength: 0, messages: [userMessage('theirs')] });
      await expectAwakenError(ctx.store.commitCheckpoint(checkpoint), 'stale_append');
      expect(await ctx.store.getRun(run.runId)).toEqual(run);
      expect((await ctx.store.readMessages(threadId)).map((record) => record.message)).toEqual([
        { role: 'user', content: 'theirs' },
      ]);
      expect((await ctx.store.getThread(threadId))?.activeRunId).toBeUndefined();
    });

    it('reports stale_version when both the run version and the message count are stale', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const stale = await nextCheckpoint(ctx.store, run, 'running');
      await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running', [userMessage('won')]));
      await expectAwakenError(ctx.store.commitCheckpoint(stale), 'stale_version');
      expect(await ctx.store.messageCount(threadId)).toBe(1);
    });

    itChecksInput(ctx, 'rejects a checkpoint whose run record names another thread', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const other = await ctx.store.createThread({ id: uniqueId('thread') });
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', [userMessage('x')]);
      // The run record names another thread than the checkpoint: a caller's mistake.
      await expectAwakenError(
        ctx.store.commitCheckpoint({ ...checkpoint, threadId: other.id }),
        'validation_failed',
      );
      expect(await ctx.store.getRun(run.runId)).toEqual(run);
      expect(await ctx.store.messageCount(other.id)).toBe(0);
      expect(await ctx.store.messageCount(threadId)).toBe(0);
    });

    it('never moves a run to another thread', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const other = await ctx.store.createThread({ id: uniqueId('thread') });
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', [userMessage('x')]);
      // Both name the other thread, but the run is stored under its own: conflict.
      await expectAwakenError(
        ctx.store.commitCheckpoint({
          ...checkpoint,
          threadId: other.id,
          run: { ...checkpoint.run, threadId: other.id },
        }),
        'conflict',
      );
      expect(await ctx.store.getRun(run.runId)).toEqual(run);
      expect(await ctx.store.messageCount(other.id)).toBe(0);
      expect(await ctx.store.messageCount(threadId)).toBe(0);
      expect((await ctx.store.listRuns(other.id)).items).toEqual([]);
    });

    it('lets exactly one of two concurrent checkpoints of the same version win', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      const peer = await ctx.peer();
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running', [userMessage('x')]);
      const results = await Promise.allSettled([
        ctx.store.commitCheckpoint(checkpoint),
        peer.commitCheckpoint({ ...checkpoint, messages: [userMessage('y'), userMessage('z')] }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect((await ctx.store.getRun(run.runId))?.version).toBe(1);
      expect([1, 2]).toContain(await ctx.store.messageCount(threadId));
    });

    it('rejects a checkpoint of an unknown run or thread with not_found', async () => {
      const { run } = await threadWithRun(ctx.store);
      const checkpoint = await nextCheckpoint(ctx.store, run, 'running');
      const ghost = { ...checkpoint.run, runId: uniqueId('missing') };
      await expectAwakenError(ctx.store.commitCheckpoint({ ...checkpoint, run: ghost }), 'not_found');
      const elsewhere = uniqueId('missing');
      await expectAwakenError(
        ctx.store.commitCheckpoint({
          ...checkpoint,
          threadId: elsewhere,
          run: { ...checkpoint.run, threadId: elsewhere },
        }),
        'not_found',
      );
    });

    it('accepts consecutive checkpoints that keep the run running', async () => {
      const { run } = await threadWithRun(ctx.store);
      const first = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running'));
      const second = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, first, 'running'));
      const third = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, second, 'running'));
      expect(third.version).toBe(run.version + 3);
      expect((await ctx.store.getRun(run.runId))?.status).toBe('running');
    });

    it('rejects an illegal run status move with invalid_transition and writes nothing', async () => {
      const { run } = await threadWithRun(ctx.store);
      const running = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running'));
      const done = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, running, 'done'));
      await expectAwakenError(
        ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, done, 'running')),
        'invalid_transition',
      );
      expect(await ctx.store.getRun(run.runId)).toEqual(done);
    });
  });
}
