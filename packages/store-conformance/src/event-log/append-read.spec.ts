import { type RunEventLog, agentEventSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid, fulfilled } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { seqs, textEvents } from './fixtures';

export function appendReadSpec(ctx: SuiteContext<RunEventLog>): void {
  describe('append and read', () => {
    it('appends consecutive events and reads them back in order, schema-valid', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 3));
      await ctx.store.append(runId, textEvents(runId, 4, 2));
      const read = await ctx.store.read(runId);
      expect(read).toEqual(textEvents(runId, 1, 5));
      for (const event of read) expectValid(agentEventSchema, event);
      expect(await ctx.store.lastSeq(runId)).toBe(5);
    });

    it('reads from any seq with a limit', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 10));
      for (let afterSeq = 0; afterSeq <= 10; afterSeq += 1) {
        expect(seqs(await ctx.store.read(runId, { afterSeq }))).toEqual(
          Array.from({ length: 10 - afterSeq }, (_, index) => afterSeq + index + 1),
        );
      }
      expect(seqs(await ctx.store.read(runId, { afterSeq: 3, limit: 2 }))).toEqual([4, 5]);
    });

    it('reads nothing for an unknown run', async () => {
      const runId = uniqueId('run');
      expect(await ctx.store.read(runId)).toEqual([]);
      expect(await ctx.store.lastSeq(runId)).toBe(0);
    });

    it('rejects a reused, skipped or foreign seq with conflict and writes nothing', async () => {
      const runId = uniqueId('run');
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 2, 1)), 'conflict');
      await ctx.store.append(runId, textEvents(runId, 1, 3));
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 3, 2)), 'conflict');
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 5, 1)), 'conflict');
      const gap = [...textEvents(runId, 4, 1), ...textEvents(runId, 6, 1)];
      await expectAwakenError(ctx.store.append(runId, gap), 'conflict');
      await expectAwakenError(ctx.store.append(runId, textEvents('another-run', 4, 1)), 'conflict');
      expect(seqs(await ctx.store.read(runId))).toEqual([1, 2, 3]);
    });

    it('lets exactly one of concurrent appends of the same seq win', async () => {
      const runId = uniqueId('run');
      const writers = [ctx.store, await ctx.peer(), await ctx.peer()];
      const results = await Promise.allSettled(
        writers.map((log) => log.append(runId, textEvents(runId, 1, 2))),
      );
      expect(fulfilled(results)).toHaveLength(1);
      expect(seqs(await ctx.store.read(runId))).toEqual([1, 2]);
    });

    it('keeps the logs of different runs apart', async () => {
      const a = uniqueId('run');
      const b = uniqueId('run');
      await ctx.store.append(a, textEvents(a, 1, 2));
      await ctx.store.append(b, textEvents(b, 1, 1));
      expect(seqs(await ctx.store.read(a))).toEqual([1, 2]);
      expect((await ctx.store.read(b)).map((event) => event.runId)).toEqual([b]);
    });
  });
}
