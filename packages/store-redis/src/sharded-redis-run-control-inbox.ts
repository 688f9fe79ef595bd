import type { RunControl, RunControlInbox } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { normalizePrefix } from './internal/connection/redis-connection';
import { RunLocator } from './internal/cluster/run-locator';
import { RunShards } from './internal/cluster/run-shards';
import { ShardPrefixes } from './internal/cluster/shard-prefixes';
import type { ReplicaWait } from './internal/lua/replica-wait';
import { RedisRunControlInbox } from './redis-run-control-inbox';

export interface ShardedRedisRunControlInboxOptions {
  /** An ioredis `Cluster` (stays yours: `close()` leaves it open). */
  redis: Redis;
  /** Key prefix (without hash tags); default `awaken`. */
  prefix?: string;
  /** How many shards; default the cluster's masters (must match the thread store's and the mailbox's). */
  shards?: number;
  requestTtlMs?: number;
  waitForReplicas?: ReplicaWait;
  /** Internal: the run locator shared with the sharded thread store of the same stores. */
  locator?: RunLocator;
  /** Internal: the shard prefixes shared with the sharded thread store of the same stores. */
  shardPrefixes?: ShardPrefixes;
}

/**
 * The RunControlInbox on a Redis Cluster: one {@link RedisRunControlInbox} per shard; a run's inbox
 * lives on the shard of its thread (found by the run locator), beside its event log, so it expires
 * with the log and its scripts run on one master. Every guarantee of the single-node inbox holds per run.
 */
export class ShardedRedisRunControlInbox implements RunControlInbox {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #shards: RunShards<RedisRunControlInbox>;

  constructor(options: ShardedRedisRunControlInboxOptions) {
    this.redis = options.redis;
    this.prefix = normalizePrefix(options.prefix);
    const prefixes = options.shardPrefixes ?? new ShardPrefixes(this.redis, this.prefix, options.shards);
    const locator = options.locator ?? new RunLocator(this.redis, prefixes);
    const { requestTtlMs, waitForReplicas } = options;
    this.#shards = new RunShards(
      prefixes,
      locator,
      (prefix) => new RedisRunControlInbox({ redis: this.redis, prefix, requestTtlMs, waitForReplicas }),
    );
  }

  async put(runId: string, control: RunControl): Promise<'stored' | 'duplicate'> {
    return (await this.#shards.ofRun(runId)).put(runId, control);
  }

  async peek(runId: string): Promise<RunControl[]> {
    return (await this.#shards.ofRun(runId)).peek(runId);
  }

  async remove(runId: string, ids: readonly string[]): Promise<void> {
    return (await this.#shards.ofRun(runId)).remove(runId, ids);
  }

  async subscribe(runId: string, listener: () => void): Promise<() => Promise<void>> {
    return (await this.#shards.ofRun(runId)).subscribe(runId, listener);
  }

  /** Closes every shard inbox's subscriptions (the cluster client stays open: it is yours). */
  close(): Promise<void> {
    return this.#shards.close();
  }
}
