import type { Redis } from 'ioredis';
import { mailboxShardPrefix } from './cluster-topology';

/**
 * The slot prefixes of a tenant's S shards on a Redis Cluster (`mailboxShardPrefix(prefix, i, S)`),
 * S given or, by default, the cluster's masters (counted on first use, as the sharded mailbox counts
 * them: both must agree). A thread's mailbox keys and its thread/run/event-log/inbox keys live under
 * the same shard prefix, so every per-thread script runs on one master.
 */
export class ShardPrefixes {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #given: number | undefined;
  #resolved: Promise<string[]> | undefined;

  constructor(redis: Redis, prefix: string, count: number | undefined) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#given = count;
  }

  /** The shard prefixes, in shard order. */
  resolve(): Promise<string[]> {
    this.#resolved ??= (async () => {
      const count = this.#given ?? (await countMasters(this.#redis));
      return Array.from({ length: count }, (_, index) => mailboxShardPrefix(this.#prefix, index, count));
    })();
    return this.#resolved;
  }
}

/** How many masters serve the cluster (at least 1). */
export async function countMasters(cluster: Redis): Promise<number> {
  const nodes = (cluster as unknown as { nodes(role: string): unknown[] }).nodes;
  if (cluster.status !== 'ready') await cluster.ping();
  return Math.max(1, nodes.call(cluster, 'master').length);
}
