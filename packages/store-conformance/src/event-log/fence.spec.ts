import type { RunEventLog } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { seqs, textEvents } from './fixtures';

export function fenceSpec(ctx: SuiteContext<RunEventLog>): void {
  describe('fencing', () => {
    it('rejects appends with a fence lower than the highest seen, and writes nothing', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 2), { fence: 1 });
      await ctx.store.append(runId, textEvents(runId, 3, 1), { fence: 2 });
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 4, 1), { fence: 1 }), 'stale_claim');
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 4, 1)), 'stale_claim');
      expect(seqs(await ctx.store.read(runId))).toEqual([1, 2, 3]);
      await ctx.store.append(runId, textEvents(runId, 4, 1), { fence: 2 });
      expect(await ctx.store.lastSeq(runId)).toBe(4);
    });

    it('checks the fence first: a fenced-out writer hears stale_claim whatever its batch holds', async () => {
      const runId = uniqueId('run');
      await ctx.store.raiseFence(runId, 2);
      await expectAwakenError(
        ctx.store.append(runId, textEvents('another-run', 1, 1), { fence: 1 }),
        'stale_claim',
      );
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 5, 1), { fence: 1 }), 'stale_claim');
      await expectAwakenError(ctx.store.append(runId, [], { fence: 1 }), 'stale_claim');
      expect(await ctx.store.lastSeq(runId)).toBe(0);
    });

    it('raiseFence returns the last seq and shuts out every lower fence from then on', async () => {
      const runId = uniqueId('run');
      expect(await ctx.store.raiseFence(runId, 3)).toBe(0);
      await ctx.store.append(runId, textEvents(runId, 1, 2), { fence: 3 });
      const peer = await ctx.peer();
      expect(await peer.raiseFence(runId, 4)).toBe(2);
      await expectAwakenError(ctx.store.append(runId, textEvents(runId, 3, 1), { fence: 3 }), 'stale_claim');
      await expectAwakenError(ctx.store.finish(runId, { fence: 3 }), 'stale_claim');
      await expectAwakenError(ctx.store.raiseFence(runId, 3), 'stale_claim');
      expect(await ctx.store.raiseFence(runId, 4)).toBe(2);
      expect(await ctx.store.isFinished(runId)).toBe(false);
      await ctx.store.finish(runId, { fence: 4 });
      expect(await ctx.store.isFinished(runId)).toBe(true);
    });

    it('an empty append still checks the fence', async () => {
      const runId = uniqueId('run');
      await ctx.store.raiseFence(runId, 2);
      await expectAwakenError(ctx.store.append(runId, [], { fence: 1 }), 'stale_claim');
      await ctx.store.append(runId, [], { fence: 2 });
      expect(await ctx.store.lastSeq(runId)).toBe(0);
    });

    itChecksInput(
      ctx,
      'rejects a fence that is not a non-negative integer with validation_failed',
      async () => {
        const runId = uniqueId('run');
        for (const fence of [-1, 1.5, Number.NaN]) {
          await expectAwakenError(
            ctx.store.append(runId, textEvents(runId, 1, 1), { fence }),
            'validation_failed',
          );
          await expectAwakenError(ctx.store.finish(runId, { fence }), 'validation_failed');
        }
        for (const fence of [0, -1, 2.5])
          await expectAwakenError(ctx.store.raiseFence(runId, fence), 'validation_failed');
        expect(await ctx.store.lastSeq(runId)).toBe(0);
        expect(await ctx.store.isFinished(runId)).toBe(false);
      },
    );
  });
}
