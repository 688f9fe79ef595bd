import fc from 'fast-check';
import { type Operation, operation, resolveFence } from './operation';
import { POOLS } from './pools';
import { fenceRef, payload, record, runId, sometimesOdd } from './values';

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const seq = sometimesOdd(fc.constantFrom(0, 1, 2, 3, 5));

/** An event body (runId and seq are set when the operation runs). */
const eventBody = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.string({ maxLength: 4 }).map((delta) => ({ type: 'text_delta', messageId: 'm0', delta })),
  },
  {
    weight: 4,
    arbitrary: payload.map((args) => ({
      type: 'tool_call_ready',
      toolCallId: 'c0',
      toolName: 'lookup',
      arguments: args,
    })),
  },
  { weight: 4, arbitrary: record.map((state) => ({ type: 'state_snapshot', state })) },
  { weight: 1, arbitrary: fc.constant({ type: 'no_such_event' }) },
);

/**
 * Finish TTLs: at once, a day (longer than any sequence, on either clock), the default, or invalid.
 * No short valid TTL: Redis expires keys on its own clock, not the differential's manual one, so a
 * log finished for 1.5 ms is gone or not by the time of the next read, depending on the load.
 */
export const ttlMs = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(0, 86_400_000, undefined) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(Number.NaN, -1, 'soon') },
);

const eventLogOps = fc.oneof(
  fc
    .record({
      runId,
      first: fc.oneof({ weight: 4, arbitrary: fc.constant('next' as const) }, { weight: 1, arbitrary: seq }),
      bodies: fc.array(eventBody, { maxLength: 3 }),
      foreign: fc.nat(9).map((draw) => draw === 0),
      fence: fenceRef,
    })
    .map((args) =>
      operation('append', args, async (stores, env) => {
        const last = await stores.eventLog.lastSeq(args.runId as string).catch(() => 0);
        const first = args.first === 'next' ? last + 1 : args.first;
        const events = args.bodies.map((body, index) => ({
          ...body,
          runId: args.foreign && index === 0 ? 'r1' : args.runId,
          seq: typeof first === 'number' ? first + index : first,
          at: 1_700_000_000_000,
        }));
        const fence = resolveFence(env, args.runId, args.fence);
        await stores.eventLog.append(args.runId as string, events as never, { fence } as never);
        return { first };
      }),
    ),
  fc
    .record({ runId, afterSeq: optional(seq), limit: optional(sometimesOdd(fc.constantFrom(1, 2))) })
    .map((args) =>
      operation('read', args, (stores) => stores.eventLog.read(args.runId as string, args as never)),
    ),
  fc
    .record({
      runId,
      afterSeq: seq,
      waitMs: sometimesOdd(fc.constant(0)),
      limit: optional(sometimesOdd(fc.constantFrom(1, 2))),
    })
    .map((args) =>
      operation('tail', args, (stores) => stores.eventLog.tail(args.runId as string, args as never)),
    ),
  fc
    .record({ method: fc.constantFrom('lastSeq', 'isFinished' as const), runId })
    .map((args) =>
      operation(args.method, args, (stores) => stores.eventLog[args.method](args.runId as string)),
    ),
  fc.record({ runId, ttlMs, fence: fenceRef }).map((args) =>
    operation('finish', args, (stores, env) => {
      const fence = resolveFence(env, args.runId, args.fence);
      return stores.eventLog.finish(args.runId as string, { ttlMs: args.ttlMs, fence } as never);
    }),
  ),
  fc
    .record({ runId, fence: fenceRef })
    .map((args) =>
      operation('raiseFence', args, (stores, env) =>
        stores.eventLog.raiseFence(args.runId as string, resolveFence(env, args.runId, args.fence) as number),
      ),
    ),
);

/** A run control: a decision, a cancel or user input, now and then a broken one. */
const control = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        decisionId: fc.constantFrom(...POOLS.decisions),
        toolCallId: sometimesOdd(fc.constantFrom(...POOLS.toolCalls)),
        action: sometimesOdd(fc.constantFrom('resume', 'cancel')),
        result: fc.option(payload, { nil: undefined }),
      })
      .map((decision) => ({
        kind: 'decision',
        id: decision.decisionId,
        decision: { ...decision, updatedAt: 1 },
      })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(...POOLS.decisions)
      .map((id) => ({ kind: 'cancel', id, reason: 'stop', at: 1_700_000_000_000 })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        id: fc.constantFrom(...POOLS.decisions),
        content: fc.oneof(
          { weight: 8, arbitrary: fc.string({ maxLength: 4 }) },
          { weight: 1, arbitrary: fc.constantFrom('👍 ok'.slice(1), 'a\uD800') },
        ),
      })
      .map(({ id, content }) => ({
        kind: 'input',
        id,
        messages: [{ role: 'user', content }],
        at: 1_700_000_000_000,
      })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>({ kind: 'input', id: 'dec0', messages: [] }, { kind: 'nope' }),
  },
);

const inboxOps = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ runId, control })
      .map((args) =>
        operation('put', args, (stores) => stores.inbox.put(args.runId as string, args.control as never)),
      ),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ runId })
      .map((args) => operation('peek', args, (stores) => stores.inbox.peek(args.runId as string))),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ runId, ids: sometimesOdd(fc.subarray([...POOLS.decisions, 'unknown-id'])) })
      .map((args) =>
        operation('remove', args, (stores) => stores.inbox.remove(args.runId as string, args.ids as never)),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<unknown>('', 42)
      .map((bad) =>
        operation('subscribe', { runId: bad }, (stores) =>
          stores.inbox.subscribe(bad as string, () => undefined),
        ),
      ),
  },
);

/** Event log and run-control inbox operations, valid and invalid. */
export const runOperation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: eventLogOps },
  { weight: 2, arbitrary: inboxOps },
);
