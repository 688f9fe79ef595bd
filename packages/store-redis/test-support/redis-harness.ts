import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** What every Redis store exposes for the test harnesses. */
interface PrefixedStore {
  readonly redis: Redis;
  readonly prefix: string;
  close(): Promise<void>;
}

/** A fresh key prefix per test, so tests share one Redis without seeing each other's keys. */
export function uniquePrefix(label = 'test'): string {
  return `${label}:${randomUUID()}:`;
}

/** Deletes every key under `prefix` (SCAN is fine here: tests only, never a hot path). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/**
 * The conformance harness parts every Redis store shares: a unique prefix per test, peers that open
 * their own connection on the same prefix (as another process would), cleanup of the keys.
 */
export function redisHarnessParts<T extends PrefixedStore>(
  url: string,
  open: (options: { redis: string; prefix: string }) => T,
) {
  return {
    async create(): Promise<T> {
      return open({ redis: url, prefix: uniquePrefix() });
    },
    async destroy(store: T): Promise<void> {
      await deleteKeys(store.redis, store.prefix);
      await store.close();
    },
    peers: {
      async connect(store: T): Promise<T> {
        return open({ redis: url, prefix: store.prefix });
      },
      async disconnect(peer: T): Promise<void> {
        await peer.close();
      },
    },
  };
}

/** Freezes a test-clock store's clock at the current Redis TIME (see `testClock`). */
export async function freezeClock(store: PrefixedStore): Promise<void> {
  const [seconds, micros] = await store.redis.time();
  const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  await store.redis.set(`${store.prefix}clock`, String(now), 'NX');
}

/** Moves a frozen test clock forward by `ms`. */
export async function advanceClock(store: PrefixedStore, ms: number): Promise<void> {
  await store.redis.incrby(`${store.prefix}clock`, Math.round(ms));
}
