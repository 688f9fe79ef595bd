import type { RunEventLog } from '@awaken/contract';
import { describe, expect, it, vi } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { seqs, textEvents } from './fixtures';

export function finishSpec(ctx: SuiteContext<RunEventLog>): void {
  describe('finish and expiry', () => {
    itChecksInput(
      ctx,
      'rejects a ttlMs that is not a non-negative number, leaving the log open',
      async () => {
        const runId = uniqueId('run');
        await ctx.store.append(runId, textEvents(runId, 1, 1));
        for (const ttlMs of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
          await expectAwakenError(ctx.store.finish(runId, { ttlMs }), 'validation_failed');
        }
        expect(await ctx.store.isFinished(runId)).toBe(false);
        await ctx.store.append(runId, textEvents(runId, 2, 1));
        expect(seqs(await ctx.store.read(runId))).toEqual([1, 2]);
      },
    );

    it('marks a log finished and keeps it readable until the TTL', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 2));
      expect(await ctx.store.isFinished(runId)).toBe(false);
      await ctx.store.finish(runId, { ttlMs: 60_000 });
      expect(await ctx.store.isFinished(runId)).toBe(true);
      expect(seqs(await ctx.store.read(runId))).toEqual([1, 2]);
    });

    it('returns at once from a tail of a finished log with nothing newer', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 1));
      await ctx.store.finish(runId, { ttlMs: 60_000 });
      const started = Date.now();
      expect(await ctx.store.tail(runId, { afterSeq: 1, waitMs: 10_000 })).toEqual([]);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('wakes a waiting tail when the log is finished', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 1));
      const tail = ctx.store.tail(runId, { afterSeq: 1, waitMs: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await (await ctx.peer()).finish(runId, { ttlMs: 60_000 });
      expect(await tail).toEqual([]);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('rejects an append to a finished log with conflict', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 1));
      await ctx.store.finish(runId, { ttlMs: 60_000 });
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 2, 1)), 'conflict');
      expect(await ctx.store.lastSeq(runId)).toBe(1);
    });

    it('drops a finished log once its TTL has passed', async () => {
      const runId = uniqueId('run');
      const live = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 3));
      await ctx.store.append(live, textEvents(live, 1, 1));
      await ctx.store.finish(runId, { ttlMs: 100 });
      await ctx.elapse(100);
      await vi.waitFor(async () => expect(await ctx.store.read(runId)).toEqual([]), { timeout: 5_000 });
      expect(await ctx.store.lastSeq(runId)).toBe(0);
      expect(await ctx.store.isFinished(runId)).toBe(false);
      expect(seqs(await ctx.store.read(live))).toEqual([1]);
    });
  });
}
