import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { toStoreError } from '../connection/redis-error';
import { isNoScript, registerScript, sendScript } from './script-loading';

/**
 * A Lua script, run with EVALSHA once the connection has loaded it (see `script-loading.ts`: a
 * connection loads every script before it runs one by SHA1, so calls keep their order on a fresh or
 * restarted server).
 */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

export function defineLuaScript(source: string): LuaScript {
  const sha = createHash('sha1').update(source).digest('hex');
  const script = { source, sha };
  registerScript(script);
  return {
    source,
    sha,
    async run(redis, keys, args) {
      const command = [keys.length, ...keys, ...args];
      try {
        try {
          return await sendScript(redis, script, command);
        } catch (error) {
          if (!isNoScript(error)) throw error;
          // The server lost its scripts under a live connection (SCRIPT FLUSH): that connection
          // forgot what it had loaded, so this second send is written as EVAL.
          return await sendScript(redis, script, command);
        }
      } catch (error) {
        throw toStoreError(error);
      }
    },
  };
}
