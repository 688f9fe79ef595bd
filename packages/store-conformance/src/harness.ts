/** Lets the suite move a store's clock (the clock its `now()` and leases use). */
export interface HarnessClock<T> {
  /** Moves `store`'s clock forward by `ms` milliseconds. */
  advance(store: T, ms: number): Promise<void>;
}

/** A second client of the same backing data, as another process would open it. */
export interface HarnessPeers<T> {
  connect(store: T): Promise<T>;
  disconnect(peer: T): Promise<void>;
}

/**
 * How a backend plugs into a conformance suite (langgraph checkpoint-validation / mastra style).
 *
 * - `create` returns a fresh, isolated store for each test (e.g. a unique key prefix on Redis);
 * - `destroy` releases it after the test (close connections, delete keys);
 * - `clock`, when given, lets the suite control time exactly (lease boundaries, TTLs); without it the
 *   suite uses short real leases and waits;
 * - `peers`, when given, opens further clients on the same data, so wake-ups, tails and concurrent
 *   claims are tested across connections; without it the suite reuses the one instance.
 *
 * Every behaviour the suite tests is mandatory for every backend.
 */
export interface StoreHarness<T> {
  name: string;
  create(): Promise<T>;
  destroy?(store: T): Promise<void>;
  clock?: HarnessClock<T>;
  peers?: HarnessPeers<T>;
}
