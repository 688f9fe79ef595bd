import { type RunRecord, type RunStatus, type ThreadRunStore, runRecordSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { newRunRecord, nextCheckpoint } from './fixtures';

const ids = (page: { items: RunRecord[] }) => page.items.map((run) => run.runId);

async function move(store: ThreadRunStore, run: RunRecord, status: RunStatus): Promise<RunRecord> {
  return store.commitCheckpoint(await nextCheckpoint(store, run, status));
}

/** `listAllRuns`: every run of the store, newest created first, optionally of some statuses (the runs list). */
export function allRunsSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('all runs (listAllRuns)', () => {
    it('lists the runs of every thread newest created first, filtered by the statuses they have now', async () => {
      const a = await ctx.store.createThread({});
      const b = await ctx.store.createThread({});
      const created = await ctx.store.createRun(newRunRecord(a.id));
      let running = await ctx.store.createRun(newRunRecord(b.id));
      let waiting = await ctx.store.createRun(newRunRecord(a.id));
      let done = await ctx.store.createRun(newRunRecord(b.id));
      running = await move(ctx.store, running, 'running');
      waiting = await move(ctx.store, await move(ctx.store, waiting, 'running'), 'waiting');
      done = await move(ctx.store, done, 'done');

      const all = await ctx.store.listAllRuns();
      expect(ids(all)).toEqual([done.runId, waiting.runId, running.runId, created.runId]);
      expect(all.nextCursor).toBeUndefined();
      for (const run of all.items) expectValid(runRecordSchema, run);
      expect(all.items).toEqual([done, waiting, running, created]);
      expect(ids(await ctx.store.listAllRuns({ status: ['created', 'running'] }))).toEqual([
        running.runId,
        created.runId,
      ]);
      expect(ids(await ctx.store.listAllRuns({ status: ['waiting'] }))).toEqual([waiting.runId]);
      expect(ids(await ctx.store.listAllRuns({ status: ['done', 'waiting'] }))).toEqual([
        done.runId,
        waiting.runId,
      ]);
      // a status move keeps the run at its place (creation order), under its new status only
      waiting = await move(ctx.store, waiting, 'done');
      expect(ids(await ctx.store.listAllRuns({ status: ['done'] }))).toEqual([done.runId, waiting.runId]);
      expect(ids(await ctx.store.listAllRuns({ status: ['waiting'] }))).toEqual([]);
      expect(await ctx.store.deleteThread(b.id)).toBe(true);
      expect(ids(await ctx.store.listAllRuns())).toEqual([waiting.runId, created.runId]);
    });

    it('pages with the cursor it returns, across statuses, without skipping or repeating a run', async () => {
      const thread = await ctx.store.createThread({});
      const created: string[] = [];
      for (let index = 0; index < 7; index += 1) {
        const run = await ctx.store.createRun(newRunRecord(thread.id));
        if (index % 3 === 1) await move(ctx.store, run, 'running');
        if (index % 3 === 2) await move(ctx.store, run, 'done');
        created.push(run.runId);
      }
      for (const status of [undefined, ['created', 'done'] as RunStatus[]]) {
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await ctx.store.listAllRuns({
            limit: 2,
            ...(cursor ? { cursor } : {}),
            ...(status ? { status } : {}),
          });
          pages.push(ids(page));
          cursor = page.nextCursor;
        } while (cursor !== undefined && pages.length < 10);
        const expected = [...created]
          .reverse()
          .filter((_, index) => status === undefined || (6 - index) % 3 !== 1);
        expect(pages.flat()).toEqual(expected);
        expect(pages.map((page) => page.length)).toEqual(
          Array.from({ length: Math.ceil(expected.length / 2) }, (_, index) =>
            Math.min(2, expected.length - index * 2),
          ),
        );
      }
    });

    itChecksInput(ctx, 'rejects an unknown or empty status filter, a bad cursor or limit', async () => {
      await expectAwakenError(ctx.store.listAllRuns({ status: ['sleeping' as never] }), 'validation_failed');
      await expectAwakenError(ctx.store.listAllRuns({ status: [] }), 'validation_failed');
      await expectAwakenError(ctx.store.listAllRuns({ cursor: '-1' }), 'validation_failed');
      await expectAwakenError(ctx.store.listAllRuns({ limit: 1.5 }), 'validation_failed');
    });
  });
}
