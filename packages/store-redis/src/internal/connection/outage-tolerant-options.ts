import { Redis, type RedisOptions } from 'ioredis';
import { type ConnectionLogSink, logConnectionState } from './connection-log';

/**
 * Client options that ride out a short Redis outage (a restart, a failover): commands wait in the
 * offline queue while the client reconnects with backoff (100 ms, 200 ms, … capped at 1 s), and fail
 * only after 30 reconnection attempts — about 25 s. Failing fast instead (ioredis `maxRetriesPerRequest:
 * 2`) turned a half-second blip into a `store_failure` for every run in flight. The stores' scripts are
 * idempotent per request, so a command re-sent after reconnecting returns its first reply.
 */
export const OUTAGE_TOLERANT_REDIS_OPTIONS = {
  // no auto-pipelining: with it, a command issued while Redis is away was held past the retry
  // budget (the reference server's "503 while Redis is away" story timed out); it saved 0.6 of
  // ~52 round trips per chat turn
  enableOfflineQueue: true,
  maxRetriesPerRequest: 30,
  retryStrategy: (times: number) => Math.min(times * 100, 1_000),
} satisfies RedisOptions;

export interface CreateRedisClientOptions {
  /** ioredis options; they win over {@link OUTAGE_TOLERANT_REDIS_OPTIONS}. */
  redis?: RedisOptions;
  /** Where connection-state lines go (one JSON object per line; default stderr). */
  log?: ConnectionLogSink;
}

/**
 * The client the stores create from a URL or options, and the one to create for them: it rides out a
 * short outage ({@link OUTAGE_TOLERANT_REDIS_OPTIONS}) and logs its connection state as one JSON line
 * per change instead of an unhandled `'error'` event (so a lost connection never crashes the process).
 */
export function createRedisClient(
  input: string | RedisOptions,
  options: CreateRedisClientOptions = {},
): Redis {
  const client =
    typeof input === 'string'
      ? new Redis(input, { ...OUTAGE_TOLERANT_REDIS_OPTIONS, ...options.redis })
      : new Redis({ ...OUTAGE_TOLERANT_REDIS_OPTIONS, ...input, ...options.redis });
  logConnectionState(client, 'command', options.log);
  return client;
}
