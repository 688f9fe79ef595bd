import { afterEach, beforeEach } from 'vitest';
import type { StoreHarness } from './harness';

const REAL_TIME_SLACK_MS = 25;

/** What every spec gets: the current test's store and ways to reach it across time and connections. */
export interface SuiteContext<T> {
  readonly harness: StoreHarness<T>;
  /** The fresh store of the running test, as this pass reaches it (the store itself, or its trusted view). */
  readonly store: T;
  /**
   * True when this pass reaches the store through the runtime's trusted view (`trustedViewOf`), which
   * by design does not check the input of the runtime's own calls: specs of a caller's mistakes
   * (`validation_failed`) are registered only on the pass that goes through the store itself.
   */
  readonly trusted: boolean;
  /** True when the harness controls the store's clock, so `elapse` is exact. */
  readonly controlsClock: boolean;
  /** Lets at least `ms` pass on the store's clock: advances the harness clock or sleeps. */
  elapse(ms: number): Promise<void>;
  /** Another client of the running test's store (the store itself when the harness has no peers). */
  peer(): Promise<T>;
  /** A lease long enough never to lapse during a test, yet short enough to wait out with `elapse`. */
  readonly shortLeaseMs: number;
}

/**
 * Registers the per-test setup and teardown of `harness` and returns the context specs read. With
 * `view`, specs reach each store (and each peer) through `view(store)` — the trusted pass — while the
 * harness keeps getting the store it created (for its clock, peers and `destroy`).
 */
export function createSuiteContext<T>(harness: StoreHarness<T>, view?: (store: T) => T): SuiteContext<T> {
  let current: { created: T; seen: T } | undefined;
  let peers: T[] = [];

  beforeEach(async () => {
    const created = await harness.create();
    current = { created, seen: view ? view(created) : created };
    peers = [];
  });

  afterEach(async () => {
    const store = current?.created;
    current = undefined;
    for (const peer of peers) await harness.peers?.disconnect(peer);
    peers = [];
    if (store !== undefined) await harness.destroy?.(store);
  });

  const requireCurrent = (): { created: T; seen: T } => {
    if (current === undefined) throw new Error('the store is only available inside a test');
    return current;
  };

  return {
    harness,
    get store() {
      return requireCurrent().seen;
    },
    trusted: view !== undefined,
    controlsClock: harness.clock !== undefined,
    shortLeaseMs: harness.clock === undefined ? 300 : 10_000,
    async elapse(ms) {
      if (harness.clock !== undefined) {
        await harness.clock.advance(requireCurrent().created, ms);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ms + REAL_TIME_SLACK_MS));
    },
    async peer() {
      const { created, seen } = requireCurrent();
      if (harness.peers === undefined) return seen;
      const peer = await harness.peers.connect(created);
      peers.push(peer);
      return view ? view(peer) : peer;
    },
  };
}
