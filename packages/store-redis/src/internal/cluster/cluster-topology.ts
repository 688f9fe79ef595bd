import { AwakenError } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { SLOTS, keySlot } from './key-slot';

/**
 * Redis Cluster support (see docs/guides/redis.md, "Redis Cluster"). Key convention: on a cluster,
 * every key of a store lives under a *slot prefix* `<prefix>{<tag>}:`, so all of them hash to the
 * slot of `<tag>`, and every script (which derives its keys from that prefix) runs on one node:
 *
 *   - thread/run store, event log, run-control inbox: tag `<prefix>g` (one slot per prefix);
 *   - mailbox shard i of S: tag `<prefix>m<i>.<n>`, n the first integer putting the tag in the i-th
 *     of S equal slot ranges, so on a cluster whose slots are split evenly (what
 *     `redis-cli --cluster create` does) the shards land on different masters. A thread belongs to
 *     shard `threadShard(threadId, S)` (a stable hash), so all of a thread's dispatch keys, its epoch
 *     and claim marker share that shard's slot.
 *
 * On a single node nothing changes: the prefix is used as given (no tag), so existing data stays
 * where it is.
 */

/** True for an ioredis `Cluster` (of any ioredis copy: recognised by its `isCluster` flag). */
export function isCluster(redis: unknown): boolean {
  return typeof redis === 'object' && redis !== null && (redis as { isCluster?: unknown }).isCluster === true;
}

/** The prefix of a store's keys on a cluster: `<prefix>{<tag>}:`; rejects a prefix with braces. */
export function slotPrefix(prefix: string, tag: string): string {
  if (/[{}]/.test(prefix)) {
    throw new AwakenError(
      'invalid_config',
      `on a Redis Cluster the key prefix must not contain { or } (the store adds its own hash tags), got ${prefix}`,
    );
  }
  return `${prefix}{${tag}}:`;
}

/** The slot prefix of the thread/run store, event log and control inbox of `prefix`. */
export function globalSlotPrefix(prefix: string): string {
  return slotPrefix(prefix, `${prefix}g`);
}

/** The slot prefix of mailbox shard `shard` of `count` (see the convention above). */
export function mailboxShardPrefix(prefix: string, shard: number, count: number): string {
  const low = Math.floor((shard * SLOTS) / count);
  const high = Math.floor(((shard + 1) * SLOTS) / count);
  for (let n = 0; ; n += 1) {
    const tag = `${prefix}m${shard}.${n}`;
    const slot = keySlot(tag);
    if (slot >= low && slot < high) return slotPrefix(prefix, tag);
  }
}

/** FNV-1a (32 bits) of a string: the stable hash that maps a thread to its mailbox shard. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The mailbox shard of a thread: stable across processes and restarts for a given shard count. */
export function threadShard(threadId: string, count: number): number {
  return count <= 1 ? 0 : fnv1a(threadId) % count;
}

/**
 * The cluster's own connection to the master serving `key`'s slot (its `duplicate()` opens a plain
 * connection to that node: what blocking reads and `CLIENT UNBLOCK` need, as a blocked cluster
 * connection would stall every other command routed to that node). Asks the cluster for the slot
 * map first when it has none.
 */
export async function masterFor(cluster: Redis, key: string): Promise<Redis> {
  const slot = keySlot(key);
  const slots = (cluster as unknown as { slots: string[][] }).slots;
  if (!slots[slot]?.[0]) await cluster.exists(key);
  const address = slots[slot]?.[0];
  const nodes = (cluster as unknown as { nodes(role: string): Redis[] }).nodes('master');
  const node = nodes.find((candidate) => `${candidate.options.host}:${candidate.options.port}` === address);
  if (!node) throw new AwakenError('store_failure', `no connection to the master ${address} of slot ${slot}`);
  return node;
}
