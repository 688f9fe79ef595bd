import { Redis, type RedisOptions } from 'ioredis';

/** A connection to use: an ioredis client (the caller keeps ownership), client options or a URL. */
export type RedisInput = Redis | RedisOptions | string;

export interface ResolvedRedis {
  client: Redis;
  /** True when the store created the client and must close it. */
  owned: boolean;
}

export function resolveRedis(input: RedisInput): ResolvedRedis {
  if (input instanceof Redis) return { client: input, owned: false };
  if (typeof input === 'string') return { client: new Redis(input), owned: true };
  return { client: new Redis(input), owned: true };
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
