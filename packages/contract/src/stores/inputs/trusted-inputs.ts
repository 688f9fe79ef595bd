import type { z } from 'zod';
import type { StoreInput } from './store-input';

/**
 * Operations whose input carries a caller's own values even when the runtime makes the call (thread
 * metadata, a message list handed in as is, a new run record, a decision or input control). Their
 * input is parsed on every path, trusted or not.
 */
const CALLER_VALUE_OPERATIONS: ReadonlySet<string> = new Set([
  'createThread',
  'updateThreadMetadata',
  'appendMessages',
  'createRun',
  'createRunWithLease',
  'createBranch',
  'put',
]);

/**
 * The trusted form of a store's input definitions, for the store's trusted view (see
 * {@link offerTrustedView}). Each operation's `parse` returns the input as given, without checking
 * it against the schema and without the JSON copy — except the operations that carry a caller's own
 * values, which keep the full parse. `keep` runs on every value-carrying input the trusted path
 * accepts: a store that keeps objects (in memory) passes its one copy there, so stored data stays
 * safe from later mutation; a store that serializes what it gets passes nothing (no copy at all).
 *
 * Only values that already have the schema's output form may go this way (no default left to
 * apply, no member a parse would strip): the runtime's own records, events and ids.
 */
export function trustedStoreInputs<T extends Record<string, StoreInput<z.ZodType>>>(
  inputs: T,
  keep: (value: unknown) => unknown = (value) => value,
): T {
  const trusted: Record<string, StoreInput<z.ZodType>> = {};
  for (const [name, input] of Object.entries(inputs)) {
    trusted[name] = CALLER_VALUE_OPERATIONS.has(input.operation)
      ? input
      : {
          operation: input.operation,
          schema: input.schema,
          parse: input.carriesValues ? (value) => keep(value) : (value) => value,
          carriesValues: input.carriesValues,
        };
  }
  return trusted as T;
}

/** Store → its trusted view, by identity (a wrapper around a store is another object: no view). */
const views = new WeakMap<object, object>();

/**
 * Registers `view` as the trusted view of `store` and returns `store`. The view is the same store
 * (same data, same connections) whose operations built on {@link trustedStoreInputs} skip the input
 * checks and copies; the store as returned stays the public, validating one.
 *
 * Guarantees: the view is found by the store object's identity, never by a property, so a caller
 * cannot reach it through the store's API, and a wrapper around the store (a Proxy, a spread copy,
 * a fault-injecting or counting decorator) is a different object and gets no view: every call goes
 * through the wrapper and the full input parse, as before.
 */
export function offerTrustedView<S extends object>(store: S, view: S): S {
  views.set(store, view);
  return store;
}

/**
 * The trusted view `store` offers (see {@link offerTrustedView}), or `store` itself when it offers
 * none. For the runtime's store wrapper only: every call made through the view must carry values the
 * runtime built and already checked. A caller's input must go through the store itself, where a
 * mistake is `validation_failed` and nothing is written.
 */
export function trustedViewOf<S extends object>(store: S): S {
  return (views.get(store) as S | undefined) ?? store;
}
