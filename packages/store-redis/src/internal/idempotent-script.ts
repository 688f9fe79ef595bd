import { randomBytes } from 'node:crypto';
import { AwakenError } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { type LuaScript, defineLuaScript } from './lua-script';

/** How long a mutating script's reply is kept for a re-sent request, unless a store says otherwise. */
export const DEFAULT_REQUEST_TTL_MS = 120_000;

/** What a store passes to run its mutating scripts. */
export interface ScriptContext {
  redis: Redis;
  prefix: string;
  /** KEYS of every call (the test clock key, or none). */
  keys: readonly string[];
  /** How long replies are kept for re-sent requests (at least this long, at most twice). */
  requestTtlMs: number;
}

/** A script that changes data, made idempotent per request (see `IDEMPOTENT_WRAPPER`). */
export interface MutatingScript extends LuaScript {
  readonly name: string;
  /** Runs once per call: a fresh request id, re-sent as is if the connection drops. */
  call(context: ScriptContext, args: readonly (string | number)[]): Promise<unknown>;
}

const shas = new Map<string, string>();

/** The SHA1 of every mutating script by name, so a test can check each survives a lost reply. */
export const MUTATING_SCRIPT_SHAS: ReadonlyMap<string, string> = shas;

/**
 * Wraps a script body (which reads ARGV[1] = prefix, ARGV[2..] = its arguments) so that it runs at
 * most once per request id. ARGV of the wrapped script: prefix, requestId, ttlMs, arguments... The
 * request id and TTL are taken out of ARGV before the body runs, so bodies never see them.
 *
 * The reply (error replies included) is recorded with cmsgpack under the request id in a hash per
 * time bucket, `P rq:<floor(now / ttl)>`, which expires at the end of the next bucket: a request seen
 * again within `ttl` (and at most `2 * ttl`) gets the recorded reply without the body running again.
 * An empty request id runs the body without recording (benchmarks, operators).
 */
const IDEMPOTENT_WRAPPER = (body: string) => `
local __request_id = table.remove(ARGV, 2)
local __request_ttl = tonumber(table.remove(ARGV, 2))
local function __body()
${body}
end
if __request_id == '' then return __body() end
local __t = redis.call('TIME')
local __bucket = math.floor((tonumber(__t[1]) * 1000 + math.floor(tonumber(__t[2]) / 1000)) / __request_ttl)
local __current = ARGV[1] .. 'rq:' .. string.format('%.0f', __bucket)
local __recorded = redis.call('HGET', __current, __request_id)
  or redis.call('HGET', ARGV[1] .. 'rq:' .. string.format('%.0f', __bucket - 1), __request_id)
if __recorded then return cmsgpack.unpack(__recorded) end
local __reply = __body()
redis.call('HSET', __current, __request_id, cmsgpack.pack(__reply))
redis.call('PEXPIREAT', __current, string.format('%.0f', (__bucket + 2) * __request_ttl))
return __reply
`;

/** A store's `requestTtlMs` option: a positive integer, default {@link DEFAULT_REQUEST_TTL_MS}. */
export function requestTtl(requestTtlMs: number | undefined): number {
  const ttl = requestTtlMs ?? DEFAULT_REQUEST_TTL_MS;
  if (!Number.isSafeInteger(ttl) || ttl < 1) {
    throw new AwakenError('invalid_config', `requestTtlMs must be a positive integer, got ${ttl}`);
  }
  return ttl;
}

/** A fresh request id: 96 random bits. */
export function newRequestId(): string {
  return randomBytes(12).toString('base64url');
}

/** Defines a mutating script named `name` (unique, e.g. `mailbox.enqueue`) from its body. */
export function defineMutatingScript(name: string, body: string): MutatingScript {
  if (shas.has(name)) throw new Error(`mutating script ${name} is defined twice`);
  const script = defineLuaScript(IDEMPOTENT_WRAPPER(body));
  shas.set(name, script.sha);
  return {
    ...script,
    name,
    call(context, args) {
      const { redis, keys, prefix, requestTtlMs } = context;
      return script.run(redis, keys, [prefix, newRequestId(), requestTtlMs, ...args]);
    },
  };
}
