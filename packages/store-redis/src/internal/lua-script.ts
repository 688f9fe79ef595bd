import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { toStoreError } from './redis-error';

/** A Lua script run with EVALSHA, loaded on first NOSCRIPT (e.g. after a Redis restart). */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

export function defineLuaScript(source: string): LuaScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    source,
    sha,
    async run(redis, keys, args) {
      try {
        try {
          return await redis.evalsha(sha, keys.length, ...keys, ...args);
        } catch (error) {
          if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
          // EVAL runs the script and caches it, so the next EVALSHA hits.
          return await redis.eval(source, keys.length, ...keys, ...args);
        }
      } catch (error) {
        throw toStoreError(error);
      }
    },
  };
}
