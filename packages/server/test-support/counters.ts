import type { RedisStores } from '@awaken/store-redis';

type Redis = RedisStores['redis'];

/** Counts kept where every process of a test sees them: tool executions, model calls, acks. */
export interface Counters {
  incr(key: string): Promise<number>;
  get(key: string): Promise<number>;
  /** Every key with its count. */
  all(): Promise<Map<string, number>>;
}

export function memoryCounters(): Counters {
  const counts = new Map<string, number>();
  return {
    async incr(key) {
      const next = (counts.get(key) ?? 0) + 1;
      counts.set(key, next);
      return next;
    },
    async get(key) {
      return counts.get(key) ?? 0;
    },
    async all() {
      return new Map(counts);
    },
  };
}

/** Counters in one Redis hash, shared by the test process and its workers. */
export function redisCounters(redis: Redis, key: string): Counters {
  return {
    incr: (field) => redis.hincrby(key, field, 1),
    async get(field) {
      return Number((await redis.hget(key, field)) ?? 0);
    },
    async all() {
      const raw = await redis.hgetall(key);
      return new Map(Object.entries(raw).map(([field, value]) => [field, Number(value)]));
    },
  };
}
