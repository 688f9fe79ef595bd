/** How many idle threads keep their in-memory plugin state by default. */
export const DEFAULT_THREAD_MEMORY_LIMIT = 1000;

interface ThreadEntry {
  values: Map<string, unknown>;
  /** Sessions of the thread executing in this runtime. */
  users: number;
}

/**
 * The thread-scoped plugin state of this runtime, by thread: shared by the runs of a thread while
 * they execute, and kept after the last one ended only for what no store holds (non-persistent
 * keys) and only for the `limit` threads used most recently, so a long-running process serving
 * many threads does not grow with them. An entry is dropped once its thread is idle and empty.
 */
export class ThreadMemory {
  private readonly threads = new Map<string, ThreadEntry>();

  constructor(private readonly limit: number) {}

  /** Threads with an entry (in use, or idle with in-memory state). */
  get size(): number {
    return this.threads.size;
  }

  /** The state of `threadId` for a session that starts; pair with {@link release}. */
  acquire(threadId: string): Map<string, unknown> {
    const entry = this.threads.get(threadId) ?? { values: new Map(), users: 0 };
    entry.users += 1;
    // Map order is insertion order: re-inserting marks the thread as the most recently used
    this.threads.delete(threadId);
    this.threads.set(threadId, entry);
    return entry.values;
  }

  /**
   * A session of the thread ended. Once none is left, the values under `stored` (persistent keys,
   * which the store holds and the next session restores) are dropped, then the entry if empty,
   * then the least recently used idle threads beyond the limit.
   */
  release(threadId: string, stored: Iterable<string>): void {
    const entry = this.threads.get(threadId);
    if (!entry) return;
    entry.users -= 1;
    if (entry.users > 0) return;
    for (const name of stored) entry.values.delete(name);
    if (entry.values.size === 0) this.threads.delete(threadId);
    for (const [id, idle] of this.threads) {
      if (this.threads.size <= this.limit) break;
      if (idle.users === 0) this.threads.delete(id);
    }
  }
}
