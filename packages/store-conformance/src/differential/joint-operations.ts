import { jointCheckpointWriter, runStatusSchema } from '@awaken/contract';
import fc from 'fast-check';
import { runRecord } from '../internal/run-record';
import { type Operation, operation, resolveFence } from './operation';
import { POOLS } from './pools';
import { ttlMs } from './run-operations';
import { favouring, fenceRef } from './values';

/** The run's last events: a `run_finish` (done or waiting), sometimes with an `error` before it. */
const lastEvents = fc.constantFrom<Array<Record<string, unknown>>>(
  [],
  [
    {
      type: 'run_finish',
      status: 'done',
      termination: { type: 'natural_end' },
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    },
  ],
  [
    { type: 'error', code: 'internal', message: 'boom' },
    {
      type: 'run_finish',
      status: 'done',
      termination: { type: 'error', message: 'boom' },
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    },
  ],
);

/**
 * The joint checkpoint write with the run's end (CheckpointEnd): step events before a checkpoint of
 * the run's next version (or a stale one), then its last events and, sometimes, the log's finish.
 * Both backends must offer the joint write for their own log (as `create*Stores` do).
 */
export const jointOperation: fc.Arbitrary<Operation> = fc
  .record({
    runId: favouring(POOLS.runs),
    status: fc.constantFrom(...runStatusSchema.options),
    versionStep: fc.constantFrom(1, 1, 1, 1, 0),
    before: fc.nat(2),
    last: lastEvents,
    gap: fc.nat(9).map((draw) => draw === 0),
    finish: fc.oneof(
      { weight: 3, arbitrary: fc.constant<{ ttlMs?: unknown } | undefined>({}) },
      { weight: 1, arbitrary: fc.constant<{ ttlMs?: unknown } | undefined>(undefined) },
      // the finish op's TTLs (no short valid one: Redis expires keys on its own clock)
      { weight: 1, arbitrary: ttlMs.map((value) => ({ ttlMs: value })) },
    ),
    fence: fenceRef,
  })
  .map((args) =>
    operation('commitCheckpointWithEvents+end', args, async (stores, env) => {
      const writer = jointCheckpointWriter(stores.threadRuns, stores.eventLog);
      if (!writer) return 'no joint writer';
      const id = args.runId as string;
      const stored = await stores.threadRuns.getRun(id).catch(() => null);
      const thread = stored?.threadId ?? 't0';
      const count = await stores.threadRuns.messageCount(thread).catch(() => 0);
      const last = await stores.eventLog.lastSeq(id).catch(() => 0);
      const events = Array.from({ length: args.before }, (_, index) => ({
        type: 'step_end',
        step: index + 1,
        runId: id,
        seq: last + 1 + index,
        at: 1_700_000_000_000,
      }));
      const end = args.last.map((body, index) => ({
        ...body,
        runId: id,
        seq: last + 1 + args.before + index + (args.gap ? 1 : 0),
        at: 1_700_000_000_000,
      }));
      const fence = resolveFence(env, args.runId, args.fence);
      const outcome = await writer.commitCheckpointWithEvents(
        {
          trigger: 'run_finished',
          threadId: thread,
          expectedMessageCount: count,
          messages: [],
          run: runRecord(id, thread, {
            ...stored,
            status: args.status,
            version: (stored?.version ?? 0) + args.versionStep,
          }),
          fence,
        } as never,
        {
          runId: id,
          events: events as never,
          fence: fence as never,
          end: {
            events: end as never,
            ...(args.finish === undefined ? {} : { finish: args.finish as never }),
          },
        },
      );
      return outcome.status === 'committed'
        ? { status: 'committed', version: outcome.run.version }
        : { status: outcome.status, code: outcome.error.code };
    }),
  );
