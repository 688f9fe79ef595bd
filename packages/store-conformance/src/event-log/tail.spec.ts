import type { AgentEvent, RunEventLog } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { seqs, textEvents } from './fixtures';

export function tailSpec(ctx: SuiteContext<RunEventLog>): void {
  describe('tail', () => {
    it('returns stored events at once', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 3));
      expect(seqs(await ctx.store.tail(runId, { afterSeq: 1, waitMs: 10_000 }))).toEqual([2, 3]);
    });

    it('wakes as soon as another client appends', async () => {
      const runId = uniqueId('run');
      const writer = await ctx.peer();
      const tail = ctx.store.tail(runId, { afterSeq: 0, waitMs: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await writer.append(runId, textEvents(runId, 1, 2));
      const started = Date.now();
      const events = await tail;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(seqs(events)[0]).toBe(1);
    });

    it('a waiting tail woken by an append returns at most `limit` events (a reader pages through a burst)', async () => {
      const runId = uniqueId('run');
      const writer = await ctx.peer();
      const tail = ctx.store.tail(runId, { afterSeq: 0, waitMs: 10_000, limit: 3 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await writer.append(runId, textEvents(runId, 1, 10));
      expect(seqs(await tail)).toEqual([1, 2, 3]);
      expect(seqs(await ctx.store.tail(runId, { afterSeq: 3, waitMs: 10_000, limit: 3 }))).toEqual([4, 5, 6]);
    });

    it('wakes every waiting tail of a run, and only those, when it gets an event', async () => {
      const [first, second] = [uniqueId('run'), uniqueId('run')];
      const writer = await ctx.peer();
      await writer.append(first, textEvents(first, 1, 2));
      const tails = [1, 2].map(() => ctx.store.tail(first, { afterSeq: 2, waitMs: 10_000 }));
      let otherDone = false;
      const other = ctx.store.tail(second, { afterSeq: 0, waitMs: 10_000 }).finally(() => {
        otherDone = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await writer.append(first, textEvents(first, 3, 1));
      expect((await Promise.all(tails)).map(seqs)).toEqual([[3], [3]]);
      expect(otherDone).toBe(false);
      await writer.append(second, textEvents(second, 1, 1));
      expect(seqs(await other)).toEqual([1]);
    });

    it('returns an empty array once the wait runs out', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 1));
      const started = Date.now();
      expect(await ctx.store.tail(runId, { afterSeq: 1, waitMs: 100 })).toEqual([]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    });

    it('returns an empty array when the signal aborts', async () => {
      const controller = new AbortController();
      const started = Date.now();
      const tail = ctx.store.tail(uniqueId('run'), {
        afterSeq: 0,
        waitMs: 20_000,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 50);
      expect(await tail).toEqual([]);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('returns at once when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const started = Date.now();
      const tail = ctx.store.tail(uniqueId('run'), {
        afterSeq: 0,
        waitMs: 20_000,
        signal: controller.signal,
      });
      expect(await tail).toEqual([]);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('gives a reader in another client every event once and in order while a writer appends', async () => {
      const runId = uniqueId('run');
      const reader = await ctx.peer();
      const total = 200;
      const startAfter = 37;
      const received: AgentEvent[] = [];
      const reading = (async () => {
        let afterSeq = startAfter;
        while (afterSeq < total) {
          const events = await reader.tail(runId, { afterSeq, waitMs: 2_000, limit: 25 });
          received.push(...events);
          afterSeq = events.at(-1)?.seq ?? afterSeq;
        }
      })();
      for (let seq = 1; seq <= total; seq += 8) {
        await ctx.store.append(runId, textEvents(runId, seq, Math.min(8, total - seq + 1)));
      }
      await reading;
      expect(seqs(received)).toEqual(
        Array.from({ length: total - startAfter }, (_, index) => startAfter + index + 1),
      );
    });

    it('never ends a finished log with [] before returning its last events (append and finish racing a tail)', async () => {
      const writer = await ctx.peer();
      const runs = Array.from({ length: 200 }, () => uniqueId('run'));
      const lastSeen = await Promise.all(
        runs.map(async (runId, index) => {
          const reading = (async () => {
            let afterSeq = 0;
            for (;;) {
              // waitMs is far longer than the writer needs: [] means "finished, nothing newer".
              const events = await ctx.store.tail(runId, { afterSeq, waitMs: 20_000 });
              if (events.length === 0) return afterSeq;
              afterSeq = events.at(-1)?.seq ?? afterSeq;
            }
          })();
          await writer.append(runId, textEvents(runId, 1, 1));
          for (let pause = 0; pause < index % 8; pause += 1) await new Promise(setImmediate);
          // The last event and the finish back to back, as a run's end writes them.
          await Promise.all([
            writer.append(runId, textEvents(runId, 2, 1)),
            writer.finish(runId, { ttlMs: 60_000 }),
          ]);
          return reading;
        }),
      );
      expect(lastSeen.filter((seq) => seq !== 2)).toEqual([]);
    });
  });
}
