import { afterEach, beforeEach } from 'vitest';
import type { StoreHarness } from './harness';

const REAL_TIME_SLACK_MS = 25;

/** What every spec gets: the current test's store and ways to reach it across time and connections. */
export interface SuiteContext<T> {
  readonly harness: StoreHarness<T>;
  /** The fresh store of the running test. */
  readonly store: T;
  /** True when the harness controls the store's clock, so `elapse` is exact. */
  readonly controlsClock: boolean;
  /** Lets at least `ms` pass on the store's clock: advances the harness clock or sleeps. */
  elapse(ms: number): Promise<void>;
  /** Another client of the running test's store (the store itself when the harness has no peers). */
  peer(): Promise<T>;
  /** A lease long enough never to lapse during a test, yet short enough to wait out with `elapse`. */
  readonly shortLeaseMs: number;
}

/** Registers the per-test setup and teardown of `harness` and returns the context specs read. */
export function createSuiteContext<T>(harness: StoreHarness<T>): SuiteContext<T> {
  let current: T | undefined;
  let peers: T[] = [];

  beforeEach(async () => {
    current = await harness.create();
    peers = [];
  });

  afterEach(async () => {
    const store = current;
    current = undefined;
    for (const peer of peers) await harness.peers?.disconnect(peer);
    peers = [];
    if (store !== undefined) await harness.destroy?.(store);
  });

  const requireStore = (): T => {
    if (current === undefined) throw new Error('the store is only available inside a test');
    return current;
  };

  return {
    harness,
    get store() {
      return requireStore();
    },
    controlsClock: harness.clock !== undefined,
    shortLeaseMs: harness.clock === undefined ? 300 : 10_000,
    async elapse(ms) {
      if (harness.clock !== undefined) {
        await harness.clock.advance(requireStore(), ms);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ms + REAL_TIME_SLACK_MS));
    },
    async peer() {
      const store = requireStore();
      if (harness.peers === undefined) return store;
      const peer = await harness.peers.connect(store);
      peers.push(peer);
      return peer;
    },
  };
}
