import { Redis, type RedisOptions } from 'ioredis';
import { createRedisClient } from './outage-tolerant-options';

/**
 * An ioredis client (version 5 or 6), recognised by its shape rather than by `instanceof`: the
 * application's client may come from another copy of ioredis than the one this package resolves.
 */
export interface RedisClientLike {
  readonly status: string;
  readonly options: object;
  duplicate(...args: any[]): unknown;
  evalsha(...args: any[]): unknown;
  quit(...args: any[]): unknown;
}

/** A connection to use: an ioredis client (the caller keeps ownership), client options or a URL. */
export type RedisInput = Redis | RedisClientLike | RedisOptions | string;

export interface ResolvedRedis {
  client: Redis;
  /** True when the store created the client and must close it. */
  owned: boolean;
}

/** True for an ioredis client of any copy: options objects have no `duplicate` or `status`. */
export function isRedisClient(input: unknown): input is RedisClientLike {
  if (input instanceof Redis) return true;
  if (typeof input !== 'object' || input === null) return false;
  const candidate = input as Partial<Record<keyof RedisClientLike, unknown>>;
  return (
    typeof candidate.status === 'string' &&
    typeof candidate.options === 'object' &&
    candidate.options !== null &&
    typeof candidate.duplicate === 'function' &&
    typeof candidate.evalsha === 'function' &&
    typeof candidate.quit === 'function'
  );
}

export function resolveRedis(input: RedisInput): ResolvedRedis {
  // A client from another ioredis copy has the same API; it is used through this copy's types.
  if (isRedisClient(input)) return { client: input as Redis, owned: false };
  // a client the store creates rides out a short outage and logs its connection state; options
  // given explicitly win
  return { client: createRedisClient(input), owned: true };
}
/** Closes a client the store owns; waits for pending replies, then disconnects if QUIT fails. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

/** The key prefix, ending with ':' so tenants and tests never share keys. */
export function normalizePrefix(prefix: string | undefined): string {
  const value = prefix ?? 'awaken';
  return value.endsWith(':') ? value : `${value}:`;
}

/**
 * A connection duplicated from `base` for the store's own use (blocking reads, pub/sub). Its errors
 * (a reconnect that failed) go to `base`'s `error` listeners — the application's, which decides how
 * to log them; without one they are dropped here, as they also fail the command that needed the
 * connection. Never left without a listener: ioredis would print each one, stack and all, to stderr.
 */
export function duplicateConnection(base: Redis): Redis {
  const client = base.duplicate();
  client.on('error', (error: Error) => {
    if (base.listenerCount('error') > 0) base.emit('error', error);
  });
  return client;
}
