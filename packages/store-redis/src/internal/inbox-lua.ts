import { defineLuaScript } from './lua-script';

/**
 * Keys (P = prefix, r = run id): `P in:<r>:q` (list, pending decision JSON in arrival order),
 * `P in:<r>:c` (hash, tool call id -> pending decision id), `P in:<r>:seen` (hash, every decision id
 * ever stored for the run -> its tool call id). Wake-ups are published on the channel `P in:<r>`.
 */

/** ARGV: prefix, runId, decisionId, toolCallId, decisionJson. Returns 'stored' or 'duplicate'. */
export const PUT_DECISION = defineLuaScript(`
local base = ARGV[1] .. 'in:' .. ARGV[2]
local decision, call = ARGV[3], ARGV[4]
local seen_call = redis.call('HGET', base .. ':seen', decision)
if seen_call == call then return 'duplicate' end
if seen_call then
  return redis.error_reply('AWAKEN conflict decision ' .. decision .. ' was stored for tool call ' .. seen_call)
end
local pending = redis.call('HGET', base .. ':c', call)
if pending then
  return redis.error_reply('AWAKEN conflict tool call ' .. call .. ' already has pending decision ' .. pending)
end
redis.call('HSET', base .. ':seen', decision, call)
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
