import fc from 'fast-check';
import type { FenceRef } from './operation';
import { ODD_VALUES, POOLS } from './pools';

/** Usually `valid`, now and then one of the odd values (an invalid input, or an edge of the valid ones). */
export function sometimesOdd<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> {
  return fc.oneof({ weight: 15, arbitrary: valid }, { weight: 1, arbitrary: fc.constantFrom(...ODD_VALUES) });
}

/** One of `ids`, the first most often, so operations keep meeting on the same records. */
export function favouring<T>(ids: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof(
    ...ids.map((id, index) => ({ weight: index === 0 ? ids.length * 2 : 1, arbitrary: fc.constant(id) })),
  );
}

export const threadId = sometimesOdd(favouring(POOLS.threads));
export const runId = sometimesOdd(favouring(POOLS.runs));
export const workerId = sometimesOdd(fc.constantFrom(...POOLS.workers));

/** A self-containing object: not JSON. */
function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
}

/** Values a store must reject (not JSON) or normalise (undefined members, -0). */
const notQuiteJson = fc.constantFrom<unknown>(
  new Date(0),
  Number.NaN,
  1n,
  new Map([[1, 2]]),
  [undefined],
  { kept: 1, dropped: undefined },
  -0,
  { nested: { deep: [1, { when: new Date(0) }] } },
);

/** A JSON value, now and then something that is not quite JSON. */
export const payload = fc.oneof(
  { weight: 40, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: notQuiteJson },
  { weight: 1, arbitrary: fc.constant(null).map(() => cyclic()) },
);

/** A JSON object (metadata, state), now and then one with a value that is not quite JSON. */
export const record = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  },
  { weight: 1, arbitrary: payload.map((value) => ({ value })) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('text', [1], null) },
);

/** A writer's fence: mostly the run's latest, sometimes none, stale, ahead or odd. */
export const fenceRef: fc.Arbitrary<FenceRef> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('latest' as const) },
  { weight: 2, arbitrary: fc.constantFrom('none' as const, 'behind' as const, 'ahead' as const) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_VALUES).map((fence) => ({ fence })) },
);
