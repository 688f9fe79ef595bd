import { type DecisionInbox, toolCallDecisionSchema } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectValid } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { decision } from './fixtures';

export function putDrainSpec(ctx: SuiteContext<DecisionInbox>): void {
  describe('put and drain', () => {
    it('stores a decision once and reports the same decision again as a duplicate', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1', { reason: 'looks fine' });
      expect(await ctx.store.put(runId, first)).toBe('stored');
      expect(await ctx.store.put(runId, first)).toBe('duplicate');
      const pending = await ctx.store.peek(runId);
      expect(pending).toEqual([first]);
      for (const item of pending) expectValid(toolCallDecisionSchema, item);
    });

    it('drains pending decisions in arrival order, once', async () => {
      const runId = uniqueId('run');
      const decisions = [decision('call-2'), decision('call-1'), decision('call-3', { action: 'cancel' })];
      for (const item of decisions) await ctx.store.put(runId, item);
      const drained = await ctx.store.drain(runId);
      expect(drained).toEqual(decisions);
      for (const item of drained) expectValid(toolCallDecisionSchema, item);
      expect(await ctx.store.drain(runId)).toEqual([]);
      expect(await ctx.store.peek(runId)).toEqual([]);
    });

    it('rejects a different decision for a call whose decision is pending with conflict', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1');
      await ctx.store.put(runId, first);
      await expectAwakenError(ctx.store.put(runId, decision('call-1', { action: 'cancel' })), 'conflict');
      expect(await ctx.store.peek(runId)).toEqual([first]);
    });

    it('rejects a decision id reused for another call with conflict', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1');
      await ctx.store.put(runId, first);
      await expectAwakenError(ctx.store.put(runId, { ...first, toolCallId: 'call-2' }), 'conflict');
    });

    it('stays idempotent after a drain: the same decision is not pending again', async () => {
      const runId = uniqueId('run');
      const first = decision('call-1');
      await ctx.store.put(runId, first);
      await ctx.store.drain(runId);
      expect(await ctx.store.put(runId, first)).toBe('duplicate');
      expect(await ctx.store.peek(runId)).toEqual([]);
      const later = decision('call-1', { action: 'cancel' });
      expect(await ctx.store.put(runId, later)).toBe('stored');
      expect(await ctx.store.drain(runId)).toEqual([later]);
    });

    it('keeps the inboxes of different runs apart', async () => {
      const a = uniqueId('run');
      const b = uniqueId('run');
      const shared = decision('call-1');
      expect(await ctx.store.put(a, shared)).toBe('stored');
      expect(await ctx.store.put(b, shared)).toBe('stored');
      expect(await ctx.store.drain(a)).toEqual([shared]);
      expect(await ctx.store.peek(b)).toEqual([shared]);
    });

    it('rejects an invalid decision with validation_failed', async () => {
      await expectAwakenError(
        ctx.store.put(uniqueId('run'), { ...decision('call-1'), decisionId: '' }),
        'validation_failed',
      );
    });
  });
}
