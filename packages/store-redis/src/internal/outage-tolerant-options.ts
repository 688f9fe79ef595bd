import type { RedisOptions } from 'ioredis';

/**
 * Client options that ride out a short Redis outage (a restart, a failover): commands wait in the
 * offline queue while the client reconnects with backoff (100 ms, 200 ms, … capped at 1 s), and fail
 * only after 30 reconnection attempts — about 25 s. Failing fast instead (ioredis `maxRetriesPerRequest:
 * 2`) turned a half-second blip into a `store_failure` for every run in flight. The stores' scripts are
 * idempotent per request, so a command re-sent after reconnecting returns its first reply.
 */
export const OUTAGE_TOLERANT_REDIS_OPTIONS = {
  enableOfflineQueue: true,
  maxRetriesPerRequest: 30,
  retryStrategy: (times: number) => Math.min(times * 100, 1_000),
} satisfies RedisOptions;
