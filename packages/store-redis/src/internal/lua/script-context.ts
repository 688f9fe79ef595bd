import { AwakenError } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { type RedisInput, normalizePrefix, resolveRedis } from '../connection/redis-connection';
import { globalSlotPrefix, isCluster } from '../cluster/cluster-topology';
import { clockKey } from '../keys/clock-key';
import { type ReplicaWait, replicaWait } from './replica-wait';

/** How long a mutating script's reply is kept for a re-sent request, unless a store says otherwise. */
export const DEFAULT_REQUEST_TTL_MS = 120_000;

/** What a store passes to run its mutating scripts. */
export interface ScriptContext {
  redis: Redis;
  prefix: string;
  /**
   * KEYS of every call: the test clock key; else, on a cluster, the route key `P route` (never read
   * or written: it only tells the cluster client which node serves the store's slot); else none.
   */
  keys: readonly string[];
  /** How long replies are kept for re-sent requests; 0: not recorded. */
  requestTtlMs: number;
  /** When set, every write waits for this many replicas (`WAIT`) before it is acknowledged. */
  waitForReplicas?: ReplicaWait;
}

/**
 * A store's `requestTtlMs` option: an integer >= 0, default {@link DEFAULT_REQUEST_TTL_MS}; 0 turns
 * the recording off (a command re-sent after a lost reply then runs again).
 */
export function requestTtl(requestTtlMs: number | undefined): number {
  const ttl = requestTtlMs ?? DEFAULT_REQUEST_TTL_MS;
  if (!Number.isSafeInteger(ttl) || ttl < 0) {
    throw new AwakenError('invalid_config', `requestTtlMs must be an integer >= 0, got ${ttl}`);
  }
  return ttl;
}

/** The options every store takes for its connection and its scripts. */
export interface StoreConnectionOptions {
  redis: RedisInput;
  prefix?: string;
  requestTtlMs?: number;
  /** Acknowledge a write only once this many replicas hold it (`WAIT`; see `replica-wait.ts`). */
  waitForReplicas?: ReplicaWait;
  /** Tests only: every script call passes the clock key, whose value freezes the scripts' clock. */
  testClock?: boolean;
}

/** A store's command connection, whether the store created it, its key prefix and its scripts' context. */
export interface StoreConnection {
  client: Redis;
  /** True when the store created the client and must close it. */
  owned: boolean;
  prefix: string;
  scripts: ScriptContext;
}

/** What every store opens with: the connection it was given (or creates), its prefix, its scripts' context. */
export function openStore(options: StoreConnectionOptions): StoreConnection {
  const { client, owned } = resolveRedis(options.redis);
  const prefix = storePrefix(client, options.prefix);
  const scripts: ScriptContext = {
    redis: client,
    prefix,
    keys: options.testClock ? [clockKey(prefix)] : isCluster(client) ? [routeKey(prefix)] : [],
    requestTtlMs: requestTtl(options.requestTtlMs),
    waitForReplicas: replicaWait(options.waitForReplicas),
  };
  return { client, owned, prefix, scripts };
}

/** The key that routes a store's script calls to its slot's node on a cluster (never stored). */
export function routeKey(prefix: string): string {
  return `${prefix}route`;
}

/**
 * The prefix a store's keys start with: the given one (default `awaken:`) on a single node; on a
 * cluster, the same with a hash tag added (`cluster/cluster-topology.ts`), unless it already holds
 * one (`{...}`), which then names the slot (a peer reopening a store on its effective prefix).
 */
export function storePrefix(client: unknown, given: string | undefined): string {
  const prefix = normalizePrefix(given);
  if (!isCluster(client) || /\{[^}]+\}/.test(prefix)) return prefix;
  return globalSlotPrefix(prefix);
}
