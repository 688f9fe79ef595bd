import type { DecisionInbox } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectInvalidField } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { decision } from './fixtures';

/** A caller's mistake is validation_failed before anything is written; stored decisions are copies. */
export function inboxBadInputSpec(ctx: SuiteContext<DecisionInbox>): void {
  describe('bad input', () => {
    it('rejects an empty run id and a decision that breaks the schema or is not JSON', async () => {
      const runId = uniqueId('run');
      await expectAwakenError(ctx.store.put('', decision('c1')), 'validation_failed');
      await expectAwakenError(ctx.store.peek(''), 'validation_failed');
      await expectAwakenError(ctx.store.drain(''), 'validation_failed');
      await expectAwakenError(
        ctx.store.put(runId, { ...decision('c1'), action: 'maybe' } as never),
        'validation_failed',
      );
      await expectInvalidField(
        ctx.store.put(runId, decision('c1', { result: { score: Number.NaN } })),
        /decision\.result\.score/,
      );
      expect(await ctx.store.peek(runId)).toEqual([]);
    });

    it('keeps what was stored when the caller later mutates the decision', async () => {
      const runId = uniqueId('run');
      const result = { approved: true, notes: ['a'] };
      const given = decision('c1', { result });
      await ctx.store.put(runId, given);
      result.notes.push('b');
      expect(await ctx.store.peek(runId)).toEqual([{ ...given, result: { approved: true, notes: ['a'] } }]);
    });
  });
}
