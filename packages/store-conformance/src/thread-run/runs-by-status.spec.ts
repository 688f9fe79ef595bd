import { type RunRecord, type RunStatus, type ThreadRunStore, runRecordSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { newRunRecord, nextCheckpoint } from './fixtures';

const ids = (page: { items: RunRecord[] }) => page.items.map((run) => run.runId);

/** Moves a stored run one checkpoint on to `status`; returns the stored record. */
async function move(store: ThreadRunStore, run: RunRecord, status: RunStatus): Promise<RunRecord> {
  return store.commitCheckpoint(await nextCheckpoint(store, run, status));
}

/** A new run of `threadId`, moved created -> running -> waiting. */
async function waitingRun(store: ThreadRunStore, threadId: string): Promise<RunRecord> {
  const run = await move(store, await store.createRun(newRunRecord(threadId)), 'running');
  return move(store, run, 'waiting');
}

/** `listRunsByStatus`: the store-wide status index a console's approval inbox and run list read. */
export function runsByStatusSpec(ctx: SuiteContext<ThreadRunStore>): void {
  describe('runs by status (listRunsByStatus)', () => {
    it('lists the runs of every thread that have the status now, newest created first', async () => {
      const a = await ctx.store.createThread({});
      const b = await ctx.store.createThread({});
      const first = await ctx.store.createRun(newRunRecord(a.id));
      const second = await ctx.store.createRun(newRunRecord(b.id));
      const third = await ctx.store.createRun(newRunRecord(a.id));
      const idle = await ctx.store.createRun(newRunRecord(b.id));
      for (const run of [first, second, third]) await move(ctx.store, run, 'running');
      const waitingThird = await move(ctx.store, await requireRun(ctx.store, third.runId), 'waiting');
      await move(ctx.store, await requireRun(ctx.store, first.runId), 'waiting');

      const waiting = await ctx.store.listRunsByStatus('waiting');
      expect(ids(waiting)).toEqual([third.runId, first.runId]);
      expect(waiting.nextCursor).toBeUndefined();
      for (const run of waiting.items) expect(expectValid(runRecordSchema, run).status).toBe('waiting');
      expect(waiting.items[0]).toEqual(waitingThird);
      expect(ids(await ctx.store.listRunsByStatus('running'))).toEqual([second.runId]);
      expect(ids(await ctx.store.listRunsByStatus('created'))).toEqual([idle.runId]);
      expect(ids(await ctx.store.listRunsByStatus('done'))).toEqual([]);
    });

    it('follows every status move: waiting -> running -> waiting -> done keeps one entry in the right list', async () => {
      const thread = await ctx.store.createThread({});
      let run = await ctx.store.createRun(newRunRecord(thread.id));
      for (const status of ['running', 'waiting', 'running', 'waiting'] as const) {
        run = await move(ctx.store, run, status);
        expect(ids(await ctx.store.listRunsByStatus(status))).toEqual([run.runId]);
      }
      expect(ids(await ctx.store.listRunsByStatus('running'))).toEqual([]);
      run = await move(ctx.store, run, 'waiting');
      expect(ids(await ctx.store.listRunsByStatus('waiting'))).toEqual([run.runId]);
      run = await move(ctx.store, run, 'done');
      expect(ids(await ctx.store.listRunsByStatus('waiting'))).toEqual([]);
      expect(ids(await ctx.store.listRunsByStatus('done'))).toEqual([run.runId]);
    });

    it('a rejected checkpoint leaves the index as it was', async () => {
      const thread = await ctx.store.createThread({});
      const run = await waitingRun(ctx.store, thread.id);
      const stale = {
        ...(await nextCheckpoint(ctx.store, run, 'done')),
        run: { ...run, status: 'done' as const },
      };
      await expectAwakenError(ctx.store.commitCheckpoint(stale), 'stale_version');
      expect(ids(await ctx.store.listRunsByStatus('waiting'))).toEqual([run.runId]);
      expect(ids(await ctx.store.listRunsByStatus('done'))).toEqual([]);
    });

    it('drops the runs of a deleted thread', async () => {
      const kept = await ctx.store.createThread({});
      const gone = await ctx.store.createThread({});
      const keptRun = await waitingRun(ctx.store, kept.id);
      await waitingRun(ctx.store, gone.id);
      await ctx.store.createRun(newRunRecord(gone.id));
      expect(await ctx.store.deleteThread(gone.id)).toBe(true);
      expect(ids(await ctx.store.listRunsByStatus('waiting'))).toEqual([keptRun.runId]);
      expect(ids(await ctx.store.listRunsByStatus('created'))).toEqual([]);
    });

    it('pages with the cursor it returns, without skipping or repeating a run', async () => {
      const thread = await ctx.store.createThread({});
      const created: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        created.push((await waitingRun(ctx.store, thread.id)).runId);
      }
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await ctx.store.listRunsByStatus('waiting', { limit: 2, ...(cursor ? { cursor } : {}) });
        pages.push(ids(page));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual([...created].reverse());
    });

    itChecksInput(
      ctx,
      'rejects an unknown status, a bad cursor or limit with validation_failed',
      async () => {
        await expectAwakenError(ctx.store.listRunsByStatus('sleeping' as never), 'validation_failed');
        await expectAwakenError(ctx.store.listRunsByStatus('waiting', { cursor: 'x' }), 'validation_failed');
        await expectAwakenError(ctx.store.listRunsByStatus('waiting', { limit: 0 }), 'validation_failed');
      },
    );
  });
}

async function requireRun(store: ThreadRunStore, runId: string): Promise<RunRecord> {
  const run = await store.getRun(runId);
  if (!run) throw new Error(`run ${runId} is missing`);
  return run;
}
