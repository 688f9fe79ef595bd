import { describe, expect, it, vi } from 'vitest';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { decision } from '../decision-inbox/fixtures';
import { textEvents } from '../event-log/fixtures';
import type { RunScopedStores } from './run-scoped-stores';

/** A finished run's inbox is dropped with its event log, `ttlMs` after `finish`. */
export function inboxExpirySpec(ctx: SuiteContext<RunScopedStores>): void {
  describe('inbox expiry', () => {
    it('drops the inbox of a finished run when its event log expires, and no other', async () => {
      const { eventLog, inbox } = ctx.store;
      const runId = uniqueId('run');
      const other = uniqueId('run');
      const given = decision('c1');
      await eventLog.append(runId, textEvents(runId, 1, 1));
      await inbox.put(runId, given);
      await inbox.put(runId, decision('c2'));
      await inbox.drain(runId);
      await inbox.put(runId, decision('c3'));
      await inbox.put(other, decision('c1'));
      await eventLog.finish(runId, { ttlMs: 200 });
      expect(await inbox.put(runId, given)).toBe('duplicate');
      await ctx.elapse(200);
      await vi.waitFor(async () => expect(await inbox.peek(runId)).toEqual([]), { timeout: 5_000 });
      // The decision ids of the dropped inbox are forgotten with it.
      expect(await inbox.put(runId, given)).toBe('stored');
      expect(await inbox.peek(other)).toHaveLength(1);
    });

    it('keeps the inbox of a run whose log is not finished', async () => {
      const { eventLog, inbox } = ctx.store;
      const runId = uniqueId('run');
      await eventLog.append(runId, textEvents(runId, 1, 1));
      await inbox.put(runId, decision('c1'));
      await ctx.elapse(250);
      expect(await inbox.peek(runId)).toHaveLength(1);
    });
  });
}
