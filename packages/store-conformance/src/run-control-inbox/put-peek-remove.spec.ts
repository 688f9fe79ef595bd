import { type RunControlInbox, decisionControl, runControlSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import { itChecksInput } from '../internal/it-checks-input';
import type { SuiteContext } from '../suite-context';
import { cancel, decision, ids, input, ticketDecision } from './fixtures';

export function putPeekRemoveSpec(ctx: SuiteContext<RunControlInbox>): void {
  describe('put, peek and remove', () => {
    it('stores a command once and reports the same command again as a duplicate', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1');
      expect(await ctx.store.put(runId, first)).toBe('stored');
      expect(await ctx.store.put(runId, first)).toBe('duplicate');
      const pending = await ctx.store.peek(runId);
      expect(pending).toEqual([first]);
      for (const item of pending) expectValid(runControlSchema, item);
    });

    it('peeks decisions, cancels and input in arrival order without removing them', async () => {
      const runId = uniqueId('run');
      const controls = [decision('call-2'), input('also this'), decision('call-1'), cancel('enough')];
      for (const item of controls) await ctx.store.put(runId, item);
      expect(await ctx.store.peek(runId)).toEqual(controls);
      expect(await ctx.store.peek(runId)).toEqual(controls);
    });

    it('removes exactly the given ids; what arrived after the peek stays', async () => {
      const runId = uniqueId('run');
      const read = [decision('call-1'), cancel()];
      for (const item of read) await ctx.store.put(runId, item);
      const peeked = await ctx.store.peek(runId);
      const late = decision('call-2');
      await ctx.store.put(runId, late);
      await ctx.store.remove(runId, ids(peeked));
      expect(await ctx.store.peek(runId)).toEqual([late]);
      await ctx.store.remove(runId, ['never-stored', late.id]);
      expect(await ctx.store.peek(runId)).toEqual([]);
      await ctx.store.remove(uniqueId('run'), ['x']);
    });

    it('accepts a removed id again: a command lost before it was recorded can be re-sent', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1');
      await ctx.store.put(runId, first);
      await ctx.store.remove(runId, [first.id]);
      expect(await ctx.store.put(runId, first)).toBe('stored');
      expect(await ctx.store.peek(runId)).toEqual([first]);
    });

    it('rejects a second pending decision for one call, and frees the call once it is removed', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1');
      await ctx.store.put(runId, first);
      const other = decision('call-1', { action: 'cancel' });
      await expectAwakenError(ctx.store.put(runId, other), 'conflict');
      expect(await ctx.store.peek(runId)).toEqual([first]);
      await ctx.store.remove(runId, [first.id]);
      expect(await ctx.store.put(runId, other)).toBe('stored');
    });

    it('stores a decision that names only its ticket; a second pending one for that ticket is a conflict', async () => {
      const runId = uniqueId('run');
      const first = ticketDecision('ticket-1');
      expect(await ctx.store.put(runId, first)).toBe('stored');
      expect(await ctx.store.put(runId, first)).toBe('duplicate');
      await expectAwakenError(ctx.store.put(runId, ticketDecision('ticket-1')), 'conflict');
      if (first.kind !== 'decision') throw new Error('fixture');
      await expectAwakenError(
        ctx.store.put(runId, decisionControl({ ...first.decision, ticketId: 'ticket-2' })),
        'conflict',
      );
      const byCall = decision('call-1');
      expect(await ctx.store.put(runId, byCall)).toBe('stored');
      expect(await ctx.store.peek(runId)).toEqual([first, byCall]);
      await ctx.store.remove(runId, [first.id]);
      const next = ticketDecision('ticket-1');
      expect(await ctx.store.put(runId, next)).toBe('stored');
      expect(await ctx.store.peek(runId)).toEqual([byCall, next]);
    });

    it('rejects a pending id reused for another call or another kind of command with conflict', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1');
      await ctx.store.put(runId, first);
      if (first.kind !== 'decision') throw new Error('fixture');
      await expectAwakenError(
        ctx.store.put(runId, decisionControl({ ...first.decision, toolCallId: 'call-2' })),
        'conflict',
      );
      await expectAwakenError(ctx.store.put(runId, { kind: 'cancel', id: first.id, at: 1 }), 'conflict');
      expect(await ctx.store.peek(runId)).toEqual([first]);
    });

    it('keeps the inboxes of different runs apart', async () => {
      const a = uniqueId('run');
      const b = uniqueId('run');
      const shared = decision('call-1');
      expect(await ctx.store.put(a, shared)).toBe('stored');
      expect(await ctx.store.put(b, shared)).toBe('stored');
      await ctx.store.remove(a, [shared.id]);
      expect(await ctx.store.peek(a)).toEqual([]);
      expect(await ctx.store.peek(b)).toEqual([shared]);
    });

    itChecksInput(ctx, 'rejects invalid commands with validation_failed and stores nothing', async () => {
      const runId = uniqueId('run');
      const valid = decision('call-1');
      if (valid.kind !== 'decision') throw new Error('fixture');
      const invalid: unknown[] = [
        { ...valid, id: '' },
        { ...valid, id: 'not-the-decision-id' },
        decisionControl({ ...valid.decision, result: { amount: 10n } }),
        decisionControl({ ...valid.decision, result: { ratio: Number.NaN } }),
        { kind: 'input', id: 'i1', messages: [], at: 1 },
        { kind: 'launch', id: 'x', at: 1 },
      ];
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      invalid.push(decisionControl({ ...valid.decision, result: cyclic }));
      let deep: unknown = 1;
      for (let depth = 0; depth < 20_000; depth += 1) deep = [deep];
      invalid.push(decisionControl({ ...valid.decision, result: deep }));
      for (const item of invalid) {
        await expectAwakenError(ctx.store.put(runId, item as never), 'validation_failed');
      }
      await expectAwakenError(ctx.store.remove(runId, [''] as never), 'validation_failed');
      expect(await ctx.store.peek(runId)).toEqual([]);
    });
  });
}
