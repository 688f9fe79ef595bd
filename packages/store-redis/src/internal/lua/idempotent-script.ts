import { randomBytes } from 'node:crypto';
import { type LuaScript, defineLuaScript } from './lua-script';
import { confirmReplicated } from './replica-wait';
import type { ScriptContext } from './script-context';

/** A script that changes data, made idempotent per request (see `IDEMPOTENT_WRAPPER`). */
export interface MutatingScript extends LuaScript {
  readonly name: string;
  /**
   * Runs once per call: a fresh request id, re-sent as is if the connection drops. With the
   * context's `waitForReplicas`, resolves only once that many replicas hold the write.
   */
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
 * The reply (error replies included) is recorded with cmsgpack at `P rq:<requestId>` for `ttlMs`
 * (Redis time): a request seen again within that time gets the recorded reply without the body
 * running again. Two commands per call (a GET that misses, a SET with PX) keep the cost low on the
 * hot paths. An empty request id runs the body without recording (benchmarks, operators).
 */
const IDEMPOTENT_WRAPPER = (body: string) => `
local __request_id = table.remove(ARGV, 2)
local __request_ttl = table.remove(ARGV, 2)
local function __body()
${body}
end
if __request_id == '' then return __body() end
local __key = ARGV[1] .. 'rq:' .. __request_id
local __recorded = redis.call('GET', __key)
if __recorded then return cmsgpack.unpack(__recorded) end
local __reply = __body()
redis.call('SET', __key, cmsgpack.pack(__reply), 'PX', __request_ttl)
return __reply
`;

/** 96 random bits drawn once per process: request ids of different processes never meet. */
const PROCESS_PART = randomBytes(12).toString('base64url');
let requestCounter = 0;

/**
 * A fresh request id: this process's random part and a counter (unique per process for 2^53
 * requests), so an id costs no `randomBytes` call — the id only has to differ from every other
 * request's within the reply's TTL.
 */
export function newRequestId(): string {
  requestCounter += 1;
  return `${PROCESS_PART}${requestCounter.toString(36)}`;
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
      const { redis, keys, prefix, requestTtlMs, waitForReplicas } = context;
      const requestId = requestTtlMs === 0 ? '' : newRequestId();
      const reply = script.run(redis, keys, [prefix, requestId, requestTtlMs, ...args]);
      if (!waitForReplicas) return reply;
      return reply.then(async (value) => {
        await confirmReplicated(redis, keys[0], waitForReplicas);
        return value;
      });
    },
  };
}
