import { DEFAULT_FINISHED_LOG_TTL_MS, type RunEventLog } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { expectAwakenError, expectInvalidField } from '../internal/expectations';
import { uniqueId } from '../internal/ids';
import type { SuiteContext } from '../suite-context';
import { seqs, textEvents } from './fixtures';

/** A caller's mistake is validation_failed before anything is written, never a store_failure. */
export function eventLogBadInputSpec(ctx: SuiteContext<RunEventLog>): void {
  describe('bad input', () => {
    it('rejects read bounds that are not whole numbers (afterSeq >= 0, limit >= 1)', async () => {
      const runId = uniqueId('run');
      await ctx.store.append(runId, textEvents(runId, 1, 3));
      for (const afterSeq of [-1, 1.5, Number.NaN, '1']) {
        await expectAwakenError(ctx.store.read(runId, { afterSeq } as never), 'validation_failed');
        await expectAwakenError(ctx.store.tail(runId, { afterSeq, waitMs: 0 } as never), 'validation_failed');
      }
      for (const limit of [0, -1, 1.5, Number.NaN]) {
        await expectAwakenError(ctx.store.read(runId, { limit }), 'validation_failed');
        await expectAwakenError(
          ctx.store.tail(runId, { afterSeq: 0, waitMs: 0, limit }),
          'validation_failed',
        );
      }
      expect(seqs(await ctx.store.read(runId, { limit: 1 }))).toEqual([1]);
    });

    it('rejects a tail without a finite wait >= 0', async () => {
      const runId = uniqueId('run');
      for (const waitMs of [Number.NaN, -1, Number.POSITIVE_INFINITY, undefined]) {
        await expectAwakenError(ctx.store.tail(runId, { afterSeq: 0, waitMs } as never), 'validation_failed');
      }
    });

    it('rejects an empty run id and events that are not JSON, naming the field, writing nothing', async () => {
      await expectAwakenError(ctx.store.read(''), 'validation_failed');
      await expectAwakenError(ctx.store.lastSeq(''), 'validation_failed');
      const runId = uniqueId('run');
      const [event] = textEvents(runId, 1, 1);
      const ready = { type: 'tool_call_ready', runId, seq: 1, at: 1, toolCallId: 'c', toolName: 't' };
      await expectInvalidField(
        ctx.store.append(runId, [{ ...ready, arguments: { size: 1n } } as never]),
        /events\.0\.arguments\.size/,
      );
      await expectAwakenError(ctx.store.append(runId, [{ ...event, seq: 0 } as never]), 'validation_failed');
      expect(await ctx.store.lastSeq(runId)).toBe(0);
    });

    it('keeps what was appended when the caller later mutates the events', async () => {
      const runId = uniqueId('run');
      const events = [
        {
          type: 'tool_call_ready' as const,
          runId,
          seq: 1,
          at: 1,
          toolCallId: 'c',
          toolName: 't',
          arguments: { a: [1] },
        },
      ];
      await ctx.store.append(runId, events);
      events[0]?.arguments.a.push(2);
      expect(await ctx.store.read(runId)).toEqual([{ ...events[0], arguments: { a: [1] } }]);
    });

    if (ctx.controlsClock) {
      it('keeps a finished log for one hour when finish gets no ttlMs', async () => {
        const runId = uniqueId('run');
        await ctx.store.append(runId, textEvents(runId, 1, 1));
        await ctx.store.finish(runId);
        await ctx.elapse(DEFAULT_FINISHED_LOG_TTL_MS - 1);
        expect(await ctx.store.isFinished(runId)).toBe(true);
        await ctx.elapse(1);
        expect(await ctx.store.read(runId)).toEqual([]);
      });
    }
  });
}
