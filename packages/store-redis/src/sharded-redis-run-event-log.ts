import type { AgentEvent, FencedWrite, RunEventLog } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { normalizePrefix } from './internal/connection/redis-connection';
import { RunLocator } from './internal/cluster/run-locator';
import { RunShards } from './internal/cluster/run-shards';
import { ShardPrefixes } from './internal/cluster/shard-prefixes';
import type { ReplicaWait } from './internal/lua/replica-wait';
import { RedisRunEventLog } from './redis-run-event-log';

export interface ShardedRedisRunEventLogOptions {
  /** An ioredis `Cluster` (stays yours: `close()` leaves it open). */
  redis: Redis;
  /** Key prefix (without hash tags); default `awaken`. */
  prefix?: string;
  /** How many shards; default the cluster's masters (must match the thread store's and the mailbox's). */
  shards?: number;
  finishedTtlMs?: number;
  requestTtlMs?: number;
  waitForReplicas?: ReplicaWait;
  /** Internal: the run locator shared with the sharded thread store of the same stores. */
  locator?: RunLocator;
  /** Internal: the shard prefixes shared with the sharded thread store of the same stores. */
  shardPrefixes?: ShardPrefixes;
}

/**
 * The RunEventLog on a Redis Cluster: one {@link RedisRunEventLog} per shard, each on its shard's
 * slot prefix; a run's log lives on the shard of its thread (found by the run locator, see
 * `internal/cluster/run-locator.ts`), beside the run record, so the joint checkpoint is one script on
 * one master. Every guarantee of the single-node log holds per run (a log is one stream on one slot).
 */
export class ShardedRedisRunEventLog implements RunEventLog {
  readonly redis: Redis;
  readonly prefix: string;
  readonly #shards: RunShards<RedisRunEventLog>;

  constructor(options: ShardedRedisRunEventLogOptions) {
    this.redis = options.redis;
    this.prefix = normalizePrefix(options.prefix);
    const prefixes = options.shardPrefixes ?? new ShardPrefixes(this.redis, this.prefix, options.shards);
    const locator = options.locator ?? new RunLocator(this.redis, prefixes);
    const { finishedTtlMs, requestTtlMs, waitForReplicas } = options;
    this.#shards = new RunShards(
      prefixes,
      locator,
      (prefix) =>
        new RedisRunEventLog({ redis: this.redis, prefix, finishedTtlMs, requestTtlMs, waitForReplicas }),
    );
  }

  /** The shard logs, in shard order (opened on first use). */
  shards(): Promise<RedisRunEventLog[]> {
    return this.#shards.all();
  }

  /** The shard log holding the run's events. */
  ofRun(runId: unknown): Promise<RedisRunEventLog> {
    return this.#shards.ofRun(runId);
  }

  async append(runId: string, events: readonly AgentEvent[], options?: FencedWrite): Promise<void> {
    return (await this.ofRun(runId)).append(runId, events, options);
  }

  async read(runId: string, query?: { afterSeq?: number; limit?: number }): Promise<AgentEvent[]> {
    return (await this.ofRun(runId)).read(runId, query);
  }

  async tail(
    runId: string,
    query: { afterSeq: number; waitMs: number; limit?: number; signal?: AbortSignal },
  ): Promise<AgentEvent[]> {
    return (await this.ofRun(runId)).tail(runId, query);
  }

  async lastSeq(runId: string): Promise<number> {
    return (await this.ofRun(runId)).lastSeq(runId);
  }

  async finish(runId: string, options?: { ttlMs?: number } & FencedWrite): Promise<void> {
    return (await this.ofRun(runId)).finish(runId, options);
  }

  async isFinished(runId: string): Promise<boolean> {
    return (await this.ofRun(runId)).isFinished(runId);
  }

  async raiseFence(runId: string, fence: number): Promise<number> {
    return (await this.ofRun(runId)).raiseFence(runId, fence);
  }

  /** Closes every shard log's blocking connections (the cluster client stays open: it is yours). */
  close(): Promise<void> {
    return this.#shards.close();
  }
}
