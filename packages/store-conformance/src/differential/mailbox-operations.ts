import { runDispatchStatusSchema, runStatusSchema } from '@awaken/contract';
import fc from 'fast-check';
import {
  type DispatchRef,
  type Operation,
  type TokenRef,
  operation,
  resolveDispatch,
  resolveToken,
} from './operation';
import { pages } from './paging';
import { ODD_VALUES, POOLS } from './pools';
import { favouring, sometimesOdd, threadId, workerId } from './values';

const dispatchRef: fc.Arbitrary<DispatchRef> = fc.oneof(
  { weight: 10, arbitrary: fc.oneof(fc.constant(0), fc.nat(5)).map((known) => ({ known })) },
  { weight: 1, arbitrary: fc.constantFrom(...POOLS.dispatches).map((id) => ({ id })) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_VALUES, 'unknown-dispatch').map((id) => ({ id })) },
);
/** Claimant operations mostly name a dispatch that was claimed. */
const claimedRef: fc.Arbitrary<DispatchRef> = fc.oneof(
  { weight: 8, arbitrary: fc.oneof(fc.constant(0), fc.nat(3)).map((claimed) => ({ claimed })) },
  { weight: 2, arbitrary: dispatchRef },
);
const tokenRef: fc.Arbitrary<TokenRef> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('latest' as const) },
  { weight: 1, arbitrary: fc.constant('earlier' as const) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_VALUES, 'bogus').map((token) => ({ token })) },
);
const leaseMs = sometimesOdd(fc.constantFrom(1, 1_000, 30_000));
const offset = sometimesOdd(fc.constantFrom(-1_000, 0, 1, 500, 60_000));
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
/** `now + offset` when the offset is a number, the odd value itself otherwise. */
const at = (now: number, value: unknown) => (typeof value === 'number' ? now + value : value);

const enqueue = fc
  .record({
    threadId,
    runId: sometimesOdd(favouring(POOLS.runs)),
    dispatchId: optional(sometimesOdd(fc.constantFrom(...POOLS.dispatches))),
    priority: optional(sometimesOdd(fc.constantFrom(0, 128, 255))),
    dedupeKey: optional(sometimesOdd(fc.constantFrom(...POOLS.dedupeKeys))),
    availableAt: optional(offset),
    maxAttempts: optional(sometimesOdd(fc.constantFrom(1, 2, 3))),
  })
  .map((args) =>
    operation('enqueue', args, (stores, env) =>
      stores.mailbox.enqueue({ ...args, availableAt: at(env.now, args.availableAt) } as never),
    ),
  );

const claim = fc
  .record({ workerId, limit: sometimesOdd(fc.constantFrom(1, 2, 5)), leaseMs })
  .map((args) => operation('claim', args, (stores) => stores.mailbox.claim(args as never)));

const claimDispatch = fc
  .record({ dispatch: dispatchRef, workerId, leaseMs })
  .map((args) =>
    operation('claimDispatch', args, (stores, env) =>
      stores.mailbox.claimDispatch({ ...args, dispatchId: resolveDispatch(env, args.dispatch) } as never),
    ),
  );

const resultArb = fc.record({
  runId: fc.oneof(
    { weight: 12, arbitrary: fc.constant<unknown>('own') },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('r1', ...ODD_VALUES.slice(0, 3)) },
  ),
  dispatchInstanceId: sometimesOdd(fc.constant('i0')),
  status: sometimesOdd(fc.constantFrom(...runStatusSchema.options)),
  termination: optional(
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc.constantFrom<unknown>({ type: 'natural_end' }, { type: 'error', message: 'x' }),
      },
      { weight: 1, arbitrary: fc.constant<unknown>({ type: 'nope' }) },
    ),
  ),
  response: optional(sometimesOdd(fc.constant('answer'))),
  error: optional(fc.constant('failed')),
});

const claimantExtra = {
  ack: fc.constant({}),
  nack: fc.record({ error: sometimesOdd(fc.constantFrom('boom', '')), retryAt: optional(offset) }),
  deadLetter: fc.record({ error: sometimesOdd(fc.constant('permanent')) }),
  extendLease: fc.record({ leaseMs }),
  recordDispatchStart: fc.record({ dispatchInstanceId: sometimesOdd(fc.constant('i0')) }),
  recordRunResult: fc.record({ result: resultArb }),
} as const;

const claimant = fc
  .constantFrom(...(Object.keys(claimantExtra) as (keyof typeof claimantExtra)[]))
  .chain((method) =>
    fc.record({ dispatch: claimedRef, token: tokenRef, extra: claimantExtra[method] }).map((args) =>
      operation(method, args, (stores, env) => {
        const dispatchId = resolveDispatch(env, args.dispatch);
        const extra: Record<string, unknown> = { ...args.extra };
        if ('retryAt' in extra) extra.retryAt = at(env.now, extra.retryAt);
        if (method === 'recordRunResult') {
          const result = { ...(extra.result as Record<string, unknown>) };
          if (result.runId === 'own') result.runId = env.runOf.get(String(dispatchId)) ?? 'r0';
          extra.result = result;
        }
        const proof = { dispatchId, claimToken: resolveToken(env, dispatchId, args.token), ...extra };
        return (stores.mailbox[method] as (input: unknown) => Promise<unknown>)(proof);
      }),
    ),
  );

const byDispatch = fc
  .record({
    method: fc.constantFrom('cancel', 'supersedeClaimed', 'loadDispatch' as const),
    dispatch: claimedRef,
  })
  .map((args) =>
    operation(args.method, args, (stores, env) =>
      stores.mailbox[args.method](resolveDispatch(env, args.dispatch) as string),
    ),
  );

const byThread = fc
  .record({ method: fc.constantFrom('interrupt', 'threadEpoch' as const), threadId })
  .map((args) =>
    operation(args.method, args, (stores) => stores.mailbox[args.method](args.threadId as string)),
  );

const listDispatches = fc
  .record({
    threadId,
    limit: optional(sometimesOdd(fc.constantFrom(1, 2, 50))),
    status: optional(sometimesOdd(fc.subarray([...runDispatchStatusSchema.options]))),
    // a well-formed cursor past every position: what one means is the store's own (PostgreSQL's seq
    // may jump past memory's positions), so only its shape and one beyond all items are compared
    cursor: optional(fc.constantFrom<unknown>('-5', '1.5', 'abc', '0', '999999999999')),
  })
  .map((args) =>
    operation('listDispatches', args, (stores) =>
      pages(
        (cursor) =>
          stores.mailbox.listDispatches(
            args.threadId as string,
            {
              limit: args.limit,
              status: args.status,
              cursor: cursor ?? args.cursor,
            } as never,
          ),
        5,
      ),
    ),
  );

const listDispatchesByStatus = fc
  .record({
    status: sometimesOdd(fc.constantFrom(...runDispatchStatusSchema.options)),
    limit: optional(sometimesOdd(fc.constantFrom(1, 2, 50))),
    // a well-formed cursor past every position: what one means is the store's own (PostgreSQL's seq
    // may jump past memory's positions), so only its shape and one beyond all items are compared
    cursor: optional(fc.constantFrom<unknown>('-5', '1.5', 'abc', '0', '999999999999')),
  })
  .map((args) =>
    operation('listDispatchesByStatus', args, (stores) =>
      pages(
        (cursor) =>
          stores.mailbox.listDispatchesByStatus(
            args.status as never,
            {
              limit: args.limit,
              cursor: cursor ?? args.cursor,
            } as never,
          ),
        5,
      ),
    ),
  );

const countDispatches = fc.constant(
  operation('countDispatches', {}, (stores) => stores.mailbox.countDispatches()),
);

const sweeps = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record({ limit: optional(sometimesOdd(fc.constantFrom(1, 2))) })
      .map((args) =>
        operation('reclaimExpiredLeases', args, (stores) =>
          stores.mailbox.reclaimExpiredLeases(args as never),
        ),
      ),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        olderThan: offset,
        status: optional(sometimesOdd(fc.subarray(['acked', 'dead_letter', 'cancelled', 'queued']))),
      })
      .map((args) =>
        operation('purgeTerminal', args, (stores, env) =>
          stores.mailbox.purgeTerminal({
            olderThan: at(env.now, args.olderThan),
            ...(args.status === undefined ? {} : { status: args.status }),
          } as never),
        ),
      ),
  },
  { weight: 1, arbitrary: fc.constant(operation('now', {}, (stores) => stores.mailbox.now())) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<unknown>(Number.NaN, -1, 'soon', undefined)
      .map((timeoutMs) =>
        operation('waitForWork', { timeoutMs }, (stores) =>
          stores.mailbox.waitForWork({ timeoutMs } as never),
        ),
      ),
  },
);

/** Mailbox operations, valid and invalid, weighted toward the ones that move dispatches. */
export const mailboxOperation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 6, arbitrary: enqueue },
  { weight: 4, arbitrary: claim },
  { weight: 2, arbitrary: claimDispatch },
  { weight: 6, arbitrary: claimant },
  { weight: 2, arbitrary: byDispatch },
  { weight: 2, arbitrary: byThread },
  { weight: 1, arbitrary: listDispatches },
  { weight: 1, arbitrary: listDispatchesByStatus },
  { weight: 1, arbitrary: countDispatches },
  { weight: 2, arbitrary: sweeps },
);
