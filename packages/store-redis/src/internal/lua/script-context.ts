import { AwakenError } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { type RedisInput, normalizePrefix, resolveRedis } from '../connection/redis-connection';
import { clockKey } from '../keys/clock-key';

/** How long a mutating script's reply is kept for a re-sent request, unless a store says otherwise. */
export const DEFAULT_REQUEST_TTL_MS = 120_000;

/** What a store passes to run its mutating scripts. */
export interface ScriptContext {
  redis: Redis;
  prefix: string;
  /** KEYS of every call (the test clock key, or none). */
  keys: readonly string[];
  /** How long replies are kept for re-sent requests; 0: not recorded. */
  requestTtlMs: number;
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
  const prefix = normalizePrefix(options.prefix);
  const scripts: ScriptContext = {
    redis: client,
    prefix,
    keys: options.testClock ? [clockKey(prefix)] : [],
    requestTtlMs: requestTtl(options.requestTtlMs),
  };
  return { client, owned, prefix, scripts };
}
