import { type ThreadRunStore, threadSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectValid } from '../internal/expectations';
import type { SuiteContext } from '../suite-context';
import { newRunRecord, nextCheckpoint, threadWithRun } from './fixtures';

export function pointersSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('thread pointers', () => {
    const pointers = async (threadId: string) => {
      const thread = expectValid(threadSchema, await ctx.store.getThread(threadId));
      return { active: thread.activeRunId, open: thread.openRunId, latest: thread.latestRunId };
    };

    it('follows a run through running, waiting, running and done', async () => {
      const { threadId, run } = await threadWithRun(ctx.store);
      expect(await pointers(threadId)).toEqual({ active: undefined, open: undefined, latest: run.runId });
      const running = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, run, 'running'));
      expect(await pointers(threadId)).toEqual({ active: run.runId, open: undefined, latest: run.runId });
      const waiting = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, running, 'waiting'));
      expect(await pointers(threadId)).toEqual({ active: undefined, open: run.runId, latest: run.runId });
      const resumed = await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, waiting, 'running'));
      expect(await pointers(threadId)).toEqual({ active: run.runId, open: undefined, latest: run.runId });
      await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, resumed, 'done'));
      expect(await pointers(threadId)).toEqual({ active: undefined, open: undefined, latest: run.runId });
    });

    it('clears only pointers that name the finishing run', async () => {
      const { threadId, run: waitingRun } = await threadWithRun(ctx.store);
      const running = await ctx.store.commitCheckpoint(
        await nextCheckpoint(ctx.store, waitingRun, 'running'),
      );
      await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, running, 'waiting'));
      const other = await ctx.store.createRun(newRunRecord(threadId));
      await ctx.store.commitCheckpoint(await nextCheckpoint(ctx.store, other, 'done'));
      expect(await pointers(threadId)).toEqual({
        active: undefined,
        open: waitingRun.runId,
        latest: other.runId,
      });
    });
  });
}
