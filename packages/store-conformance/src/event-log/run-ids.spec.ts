import type { RunEventLog } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { seqs, textEvents } from './fixtures';

export function runIdsSpec(ctx: SuiteContext<RunEventLog>): void {
  describe('run ids', () => {
    it('keeps logs apart when one run id extends another with a separator and suffix', async () => {
      const base = uniqueId('run');
      const runs = [base, `${base}:meta`, `${base}:meta:meta`];
      for (const [index, runId] of runs.entries()) {
        await ctx.store.append(runId, textEvents(runId, 1, index + 1));
      }
      await ctx.store.finish(`${base}:meta`);
      for (const [index, runId] of runs.entries()) {
        expect(seqs(await ctx.store.read(runId))).toEqual(seqs(textEvents(runId, 1, index + 1)));
        expect(await ctx.store.lastSeq(runId)).toBe(index + 1);
        expect(await ctx.store.isFinished(runId)).toBe(runId === `${base}:meta`);
      }
    });
  });
}
