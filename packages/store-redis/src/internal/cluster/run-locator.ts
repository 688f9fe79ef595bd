import { AwakenError } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { toStoreError } from '../connection/redis-error';
import { threadShard } from './cluster-topology';
import type { ShardPrefixes } from './shard-prefixes';

/** Most run ids whose thread a process remembers (the oldest are forgotten first). */
const REMEMBERED = 100_000;

/**
 * The thread of a run, on a Redis Cluster: what the stores need to find the shard of a call that
 * names a run only (`getRun`, the run lease, the event log, the control inbox). A run never changes
 * thread, so the sharded thread store writes `<shard prefix>rt:<runId>` = threadId (the shard of the
 * run id's hash, so the entries spread over the shards too) before the run's script, and every
 * process remembers what it wrote or read. A run id no entry names (an event log or inbox written
 * without a run record, as the stores' contracts allow) lives on the shard of its own id's hash;
 * such a miss is not remembered, since the run may be created later.
 */
export class RunLocator {
  readonly #redis: Redis;
  readonly #shards: ShardPrefixes;
  readonly #known = new Map<string, string>();

  constructor(redis: Redis, shards: ShardPrefixes) {
    this.#redis = redis;
    this.#shards = shards;
  }

  /** The directory key of a run id. */
  async key(runId: string): Promise<string> {
    const prefixes = await this.#shards.resolve();
    return `${prefixes[threadShard(runId, prefixes.length)]}rt:${runId}`;
  }

  /** The index of the shard holding the run's keys (see the class comment). */
  async shardOf(runId: string): Promise<number> {
    const prefixes = await this.#shards.resolve();
    const thread = await this.threadOf(runId);
    return threadShard(thread ?? runId, prefixes.length);
  }

  /** The thread of the run, when a run record was made for it. */
  async threadOf(runId: string): Promise<string | undefined> {
    const known = this.#known.get(runId);
    if (known !== undefined) return known;
    let thread: string | null;
    try {
      thread = await this.#redis.get(await this.key(runId));
    } catch (error) {
      throw toStoreError(error);
    }
    if (thread !== null) this.#remember(runId, thread);
    return thread ?? undefined;
  }

  /**
   * Records the run's thread before its record is written. Refuses (`conflict`, as creating an
   * existing run does) when the entry names another thread that `holds` the run (its shard has the
   * run, or may be creating it); an entry left by a run that is gone (its thread deleted, or a create
   * that found no thread) is replaced — compare-and-set, so of two processes replacing it at once
   * one wins and the other sees the winner's entry.
   */
  async record(
    runId: string,
    threadId: string,
    holds: (threadId: string) => Promise<boolean>,
    /** Compare-and-set of the entry `key` from `previous` to `next`: true when swapped. */
    swap: (key: string, previous: string, next: string) => Promise<boolean>,
  ): Promise<void> {
    const key = await this.key(runId);
    try {
      for (;;) {
        // SET NX then GET (not SET NX GET: that needs Redis 7); the GET only when the entry exists
        if ((await this.#redis.set(key, threadId, 'NX')) === 'OK') break;
        const previous = await this.#redis.get(key);
        if (previous === null) continue; // forgotten meanwhile: reserve again
        if (previous === threadId) break;
        if (await holds(previous)) throw new AwakenError('conflict', `run ${runId} already exists`);
        if (await swap(key, previous, threadId)) break;
      }
    } catch (error) {
      throw toStoreError(error);
    }
    this.#remember(runId, threadId);
  }

  /**
   * Forgets what this process remembered of the run's thread and reports whether it remembered
   * anything: a caller that found no run where a remembered entry pointed re-reads the entry (the
   * run's thread may have been deleted by another process and the id used again on another thread).
   */
  forgetRemembered(runId: string): boolean {
    return this.#known.delete(runId);
  }

  /** Forgets deleted runs (their thread was deleted): drops their entries and what this process knew. */
  async forget(runIds: readonly string[]): Promise<void> {
    for (const runId of runIds) this.#known.delete(runId);
    try {
      await Promise.all(runIds.map(async (runId) => this.#redis.unlink(await this.key(runId))));
    } catch (error) {
      throw toStoreError(error);
    }
  }

  #remember(runId: string, threadId: string): void {
    this.#known.set(runId, threadId);
    if (this.#known.size > REMEMBERED) {
      const oldest = this.#known.keys().next().value;
      if (oldest !== undefined) this.#known.delete(oldest);
    }
  }
}
