import type { RunLocator } from './run-locator';
import type { ShardPrefixes } from './shard-prefixes';

/**
 * One store per shard of a Redis Cluster (opened on first use, on the shard prefixes), and the
 * store holding a run (found by its {@link RunLocator}): what the sharded event log and control
 * inbox route every call through.
 */
export class RunShards<T extends { close(): Promise<void> }> {
  readonly #prefixes: ShardPrefixes;
  readonly #locator: RunLocator;
  readonly #open: (prefix: string) => T;
  #stores: Promise<T[]> | undefined;
  #closed = false;

  constructor(prefixes: ShardPrefixes, locator: RunLocator, open: (prefix: string) => T) {
    this.#prefixes = prefixes;
    this.#locator = locator;
    this.#open = open;
  }

  /** Every shard's store, in shard order. */
  all(): Promise<T[]> {
    this.#stores ??= this.#prefixes.resolve().then((prefixes) => prefixes.map(this.#open));
    return this.#stores;
  }

  /** The store of the run's shard; shard 0 for a malformed id (it rejects it as one node would). */
  async ofRun(runId: unknown): Promise<T> {
    const stores = await this.all();
    if (typeof runId !== 'string' || runId.length === 0) return stores[0] as T;
    return stores[await this.#locator.shardOf(runId)] as T;
  }

  async close(): Promise<void> {
    if (this.#closed || this.#stores === undefined) return;
    this.#closed = true;
    await Promise.all((await this.#stores.catch(() => [])).map((store) => store.close()));
  }
}
