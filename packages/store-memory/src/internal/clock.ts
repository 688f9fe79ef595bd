/** Options every memory store accepts. */
export interface MemoryStoreOptions {
  /**
   * The store's clock in milliseconds since the epoch (default `Date.now`). Tests pass a manual clock
   * to put a lease exactly at its deadline; production code leaves it alone.
   */
  now?: () => number;
}

export function storeClock(options: MemoryStoreOptions | undefined): () => number {
  return options?.now ?? Date.now;
}
