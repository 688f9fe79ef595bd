import type { DecisionInbox } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { decision } from './fixtures';

export function inboxConcurrencySpec(ctx: SuiteContext<DecisionInbox>): void {
  describe('concurrency', () => {
    it('stores 100 concurrent puts of one decision once and drains it once', async () => {
      const runId = uniqueId('run');
      const clients = [ctx.store, await ctx.peer(), await ctx.peer(), await ctx.peer()];
      const one = decision('call-1');
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, (_, index) => clients[index % clients.length]!.put(runId, one)),
      );
      expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(99);
      const drains = await Promise.all(
        Array.from({ length: 20 }, (_, index) => clients[index % clients.length]!.drain(runId)),
      );
      expect(drains.flat()).toEqual([one]);
    });

    it('hands every decision to exactly one of many concurrent drainers', async () => {
      const runId = uniqueId('run');
      const clients = [ctx.store, await ctx.peer(), await ctx.peer()];
      const decisions = Array.from({ length: 30 }, (_, index) => decision(`call-${index}`));
      const drained: string[] = [];
      await Promise.all([
        ...decisions.map((item, index) => clients[index % clients.length]!.put(runId, item)),
        ...Array.from({ length: 10 }, async (_, index) => {
          const batch = await clients[index % clients.length]!.drain(runId);
          drained.push(...batch.map((item) => item.decisionId));
        }),
      ]);
      drained.push(...(await ctx.store.drain(runId)).map((item) => item.decisionId));
      expect(drained.sort()).toEqual(decisions.map((item) => item.decisionId).sort());
    });
  });
}
