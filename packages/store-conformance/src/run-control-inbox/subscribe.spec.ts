import type { RunControlInbox } from '@awaken/contract';
import { describe, expect, it, vi } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { cancel, decision } from './fixtures';

export function subscribeSpec(ctx: SuiteContext<RunControlInbox>): void {
  describe('subscribe', () => {
    it('wakes a subscriber after a put from another client, and only for its run', async () => {
      const runId = uniqueId('run');
      const writer = await ctx.peer();
      let wakeUps = 0;
      let otherWakeUps = 0;
      const unsubscribe = await ctx.store.subscribe(runId, () => {
        wakeUps += 1;
      });
      const unsubscribeOther = await ctx.store.subscribe(uniqueId('run'), () => {
        otherWakeUps += 1;
      });
      await writer.put(runId, cancel());
      await vi.waitFor(() => expect(wakeUps).toBe(1), { timeout: 5_000 });
      expect(await ctx.store.peek(runId)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(otherWakeUps).toBe(0);
      await unsubscribe();
      await unsubscribeOther();
    });

    it('stops waking a subscriber once it unsubscribed', async () => {
      const runId = uniqueId('run');
      let wakeUps = 0;
      const unsubscribe = await ctx.store.subscribe(runId, () => {
        wakeUps += 1;
      });
      await ctx.store.put(runId, decision('call-1'));
      await vi.waitFor(() => expect(wakeUps).toBe(1), { timeout: 5_000 });
      await unsubscribe();
      await ctx.store.put(runId, decision('call-2'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(wakeUps).toBe(1);
    });

    it('wakes every subscriber of the run', async () => {
      const runId = uniqueId('run');
      const woken: string[] = [];
      const first = await ctx.store.subscribe(runId, () => woken.push('first'));
      const second = await (await ctx.peer()).subscribe(runId, () => woken.push('second'));
      await ctx.store.put(runId, decision('call-1'));
      await vi.waitFor(() => expect(woken.sort()).toEqual(['first', 'second']), { timeout: 5_000 });
      await first();
      await second();
    });
  });
}
