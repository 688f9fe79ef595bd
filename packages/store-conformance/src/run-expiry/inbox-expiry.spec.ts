import { describe, expect, it, vi } from 'vitest';
import { textEvents } from '../event-log/fixtures';
import { uniqueId } from '../internal/ids';
import { cancel, decision, ids } from '../run-control-inbox/fixtures';
import type { SuiteContext } from '../suite-context';
import type { RunScopedStores } from './run-scoped-stores';

/** A finished run's control inbox is dropped with its event log, `ttlMs` after `finish`. */
export function inboxExpirySpec(ctx: SuiteContext<RunScopedStores>): void {
  describe('inbox expiry', () => {
    it('drops the inbox of a finished run when its event log expires, and no other', async () => {
      const { eventLog, inbox } = ctx.store;
      const runId = uniqueId('run');
      const other = uniqueId('run');
      const given = decision('c1');
      const removed = decision('c2');
      await eventLog.append(runId, textEvents(runId, 1, 1));
      await inbox.put(runId, given);
      await inbox.put(runId, removed);
      await inbox.remove(runId, [removed.id]);
      await inbox.put(other, decision('c1'));
      await eventLog.finish(runId, { ttlMs: 200 });
      // A command that arrives after the finish expires with the run too.
      const late = cancel();
      expect(await inbox.put(runId, late)).toBe('stored');
      expect(await inbox.put(runId, given)).toBe('duplicate');
      expect(ids(await inbox.peek(runId))).toEqual([given.id, late.id]);
      await ctx.elapse(200);
      await vi.waitFor(async () => expect(await inbox.peek(runId)).toEqual([]), { timeout: 5_000 });
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
