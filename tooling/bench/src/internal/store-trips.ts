/**
 * Counts store round trips: every call of a store method is one request to its backend, except
 * `checkpointWithEvents`, which only hands out the joint writer (whose calls are counted instead),
 * and the function `subscribe` resolves with, which unsubscribes (one request) when called.
 */
export interface TripCounter {
  /** Calls per method name (`joint.commitCheckpointWithEvents` for the joint writer's). */
  readonly byMethod: Map<string, number>;
  total(): number;
}

export function createTripCounter(): TripCounter {
  const byMethod = new Map<string, number>();
  return {
    byMethod,
    total: () => [...byMethod.values()].reduce((sum, count) => sum + count, 0),
  };
}

function note(counter: TripCounter, name: string): void {
  counter.byMethod.set(name, (counter.byMethod.get(name) ?? 0) + 1);
}

/**
 * `store` with every method call counted in `counter` (see {@link TripCounter}). Wrap the store's
 * trusted view (`trustedViewOf`), not the store: a wrapper gets no trusted view of its own, so
 * wrapping the public store would make the runtime parse every input it already built.
 */
export function countTrips<T extends object>(store: T, counter: TripCounter, prefix = ''): T {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const name = `${prefix}${String(key)}`;
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        if (key === 'checkpointWithEvents')
          return result === undefined ? result : countTrips(result as object, counter, 'joint.');
        note(counter, name);
        if (key !== 'subscribe') return result;
        return (result as Promise<() => Promise<void>>).then((unsubscribe) => () => {
          note(counter, `${prefix}unsubscribe`);
          return unsubscribe();
        });
      };
    },
  });
}
