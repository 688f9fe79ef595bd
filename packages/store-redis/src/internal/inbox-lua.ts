import { defineLuaScript } from './lua-script';

/**
 * Keys (P = prefix, r = run id): `P in:<r>:q` (list, pending decision JSON in arrival order),
 * `P in:<r>:c` (hash, tool call id -> pending decision id), `P in:<r>:seen` (set, every decision id
 * ever stored for the run). Wake-ups are published on the channel `P in:<r>`.
 */

/** ARGV: prefix, runId, decisionId, toolCallId, decisionJson. Returns 'stored' or 'duplicate'. */
export const PUT_DECISION = defineLuaScript(`
local base = ARGV[1] .. 'in:' .. ARGV[2]
local decision, call = ARGV[3], ARGV[4]
if redis.call('SISMEMBER', base .. ':seen', decision) == 1 then return 'duplicate' end
local pending = redis.call('HGET', base .. ':c', call)
if pending then
  return redis.error_reply('AWAKEN conflict tool call ' .. call .. ' already has pending decision ' .. pending)
end
redis.call('SADD', base .. ':seen', decision)
redis.call('RPUSH', base .. ':q', ARGV[5])
redis.call('HSET', base .. ':c', call, decision)
redis.call('PUBLISH', base, decision)
return 'stored'
`);

/** ARGV: prefix, runId. Removes and returns the pending decisions, in arrival order. */
export const DRAIN_DECISIONS = defineLuaScript(`
local base = ARGV[1] .. 'in:' .. ARGV[2]
local pending = redis.call('LRANGE', base .. ':q', 0, -1)
redis.call('DEL', base .. ':q', base .. ':c')
return pending
`);
