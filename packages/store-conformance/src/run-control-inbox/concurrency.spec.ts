import type { RunControlInbox } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { decision, ids } from './fixtures';

export function inboxConcurrencySpec(ctx: SuiteContext<RunControlInbox>): void {
  describe('concurrency', () => {
    it('stores 100 concurrent puts of one command from several clients once', async () => {
      const runId = uniqueId('run');
      const clients = [ctx.store, await ctx.peer(), await ctx.peer(), await ctx.peer()];
      const one = decision('call-1');
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, (_, index) => clients[index % clients.length]!.put(runId, one)),
      );
      expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(99);
      expect(await ctx.store.peek(runId)).toEqual([one]);
    });

    it('loses nothing that is put while other clients peek and remove what they read', async () => {
      const runId = uniqueId('run');
      const clients = [ctx.store, await ctx.peer(), await ctx.peer()];
      const controls = Array.from({ length: 30 }, (_, index) => decision(`call-${index}`));
      const removed: string[] = [];
      await Promise.all([
        ...controls.map((item, index) => clients[index % clients.length]!.put(runId, item)),
        ...Array.from({ length: 10 }, async (_, index) => {
          const client = clients[index % clients.length]!;
          const read = ids(await client.peek(runId));
          await client.remove(runId, read);
          removed.push(...read);
        }),
      ]);
      const left = ids(await ctx.store.peek(runId));
      expect(new Set([...removed, ...left])).toEqual(new Set(ids(controls)));
      expect(left.filter((id) => removed.includes(id))).toEqual([]);
    });
  });
}
