import { defineLuaScript } from './lua-script';

/**
 * Keys (P = prefix, r = run id), one namespace per kind so no run id can name another run's key:
 * `P ctq:<r>` (list, pending ids in arrival order), `P cte:<r>` (hash, id -> entry JSON),
 * `P ctc:<r>` (hash, decision target -> id of its pending decision; the target is the contract's
 * `decisionTarget`: `call:<toolCallId>`, or `ticket:<ticketId>` for a decision naming no call).
 * Wake-ups are published on the channel `P ctl:<r>`. Entry JSON is built by the caller and stored
 * verbatim; the scripts decode it only to read `kind` and the decision's target.
 */
const PRELUDE = `
local P, r = ARGV[1], ARGV[2]
local q, e, c = P .. 'ctq:' .. r, P .. 'cte:' .. r, P .. 'ctc:' .. r
local function call_of(entry)
  if entry.kind == 'decision' then
    local call = entry.decision.toolCallId
    if type(call) == 'string' then return 'call:' .. call end
    return 'ticket:' .. entry.decision.ticketId
  end
  return ''
end
`;

/** ARGV: prefix, runId, id, kind, decision target ('' unless a decision), entryJson. 'stored' | 'duplicate'. */
export const PUT_CONTROL = defineLuaScript(`${PRELUDE}
local id, kind, call = ARGV[3], ARGV[4], ARGV[5]
local earlier = redis.call('HGET', e, id)
if earlier then
  local previous = cjson.decode(earlier)
  if previous.kind == kind and call_of(previous) == call then return 'duplicate' end
  return redis.error_reply('AWAKEN conflict run control ' .. id .. ' of run ' .. r .. ' is pending as another command')
end
if kind == 'decision' then
  local pending = redis.call('HGET', c, call)
  if pending then
    return redis.error_reply('AWAKEN conflict ' .. call .. ' of run ' .. r ..
      ' already has pending decision ' .. pending)
  end
  redis.call('HSET', c, call, id)
end
redis.call('HSET', e, id, ARGV[6])
redis.call('RPUSH', q, id)
redis.call('PUBLISH', P .. 'ctl:' .. r, id)
return 'stored'
`);

/** ARGV: prefix, runId. The pending entry JSONs in arrival order. */
export const PEEK_CONTROLS = defineLuaScript(`${PRELUDE}
local entries = {}
for _, id in ipairs(redis.call('LRANGE', q, 0, -1)) do
  local json = redis.call('HGET', e, id)
  if json then table.insert(entries, json) end
end
return entries
`);

/** ARGV: prefix, runId, id... Removes exactly those entries; unknown ids are ignored. */
export const REMOVE_CONTROLS = defineLuaScript(`${PRELUDE}
for i = 3, #ARGV do
  local id = ARGV[i]
  local json = redis.call('HGET', e, id)
  if json then
    redis.call('HDEL', e, id)
    redis.call('LREM', q, 1, id)
    local call = call_of(cjson.decode(json))
    if call ~= '' and redis.call('HGET', c, call) == id then redis.call('HDEL', c, call) end
  end
end
return 1
`);
