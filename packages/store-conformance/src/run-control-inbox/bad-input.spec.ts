import type { RunControlInbox } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectInvalidField } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { cancel, decision } from './fixtures';

/** A caller's mistake is validation_failed before anything is written; stored commands are copies. */
export function inboxBadInputSpec(ctx: SuiteContext<RunControlInbox>): void {
  describe('bad input', () => {
    it('rejects an empty run id, a control that breaks the schema and a decision that is not JSON', async () => {
      const runId = uniqueId('run');
      await expectAwakenError(ctx.store.put('', cancel()), 'validation_failed');
      await expectAwakenError(ctx.store.peek(''), 'validation_failed');
      await expectAwakenError(ctx.store.remove('', []), 'validation_failed');
      await expectAwakenError(ctx.store.remove(runId, [''] as never), 'validation_failed');
      await expectAwakenError(
        ctx.store.put(runId, { ...cancel(), kind: 'maybe' } as never),
        'validation_failed',
      );
      await expectAwakenError(ctx.store.put(runId, { ...cancel(), id: '\uD800' }), 'validation_failed');
      await expectInvalidField(
        ctx.store.put(runId, decision('c1', { result: { score: Number.NaN } })),
        /control\.decision\.result\.score/,
      );
      expect(await ctx.store.peek(runId)).toEqual([]);
    });

    it('keeps what was stored when the caller later mutates the command', async () => {
      const runId = uniqueId('run');
      const result = { approved: true, notes: ['a'] };
      const given = decision('c1', { result });
      await ctx.store.put(runId, given);
      result.notes.push('b');
      const [stored] = await ctx.store.peek(runId);
      expect(stored?.kind === 'decision' ? stored.decision.result : undefined).toEqual({
        approved: true,
        notes: ['a'],
      });
    });
  });
}
