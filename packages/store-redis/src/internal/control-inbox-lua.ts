import { defineMutatingScript } from './idempotent-script';
import { defineLuaScript } from './lua-script';

/**
 * Keys (see run-keys.ts): `P ctq:<r>` (list, pending ids in arrival order), `P cte:<r>` (hash, id ->
 * entry JSON), `P ctc:<r>` (hash, decision target -> id of its pending decision: the contract's `decisionTarget`,
 * `call:<toolCallId>`, or `ticket:<ticketId>` for a decision naming no call); wake-ups on the channel
 * `P ctl:<r>`. ARGV of every script: prefix, runId, queueKey, entriesKey, callsKey, ... Entry JSON is
 * built by the caller and stored verbatim; the scripts decode it only to read `kind` and the
 * decision's target.
 */
const PRELUDE = `
local r, q, e, c = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local function call_of(entry)
  if entry.kind == 'decision' then
    local call = entry.decision.toolCallId
    if type(call) == 'string' then return 'call:' .. call end
    return 'ticket:' .. entry.decision.ticketId
  end
  return ''
end
`;

/**
 * ARGV: ..., channel, eventMetaKey, id, kind, decision target ('' unless a decision), entryJson.
 * 'stored' | 'duplicate'. When the run's event log is finished (its meta key has a TTL), the inbox
 * keys get the same TTL, so a command that arrives late expires with the run.
 */
export const PUT_CONTROL = defineMutatingScript(
  'controls.put',
  `${PRELUDE}
local channel, meta, id, kind, call = ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10]
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
redis.call('HSET', e, id, ARGV[11])
redis.call('RPUSH', q, id)
local ttl = redis.call('PTTL', meta)
if ttl > 0 then
  for _, key in ipairs({ q, e, c }) do redis.call('PEXPIRE', key, ttl) end
end
redis.call('PUBLISH', channel, id)
return 'stored'
`,
);

/** ARGV: prefix, runId, queueKey, entriesKey, callsKey. The pending entry JSONs in arrival order. */
export const PEEK_CONTROLS = defineLuaScript(`${PRELUDE}
local entries = {}
for _, id in ipairs(redis.call('LRANGE', q, 0, -1)) do
  local json = redis.call('HGET', e, id)
  if json then table.insert(entries, json) end
end
return entries
`);

/** ARGV: ..., id... Removes exactly those entries; unknown ids are ignored. */
export const REMOVE_CONTROLS = defineMutatingScript(
  'controls.remove',
  `${PRELUDE}
for i = 6, #ARGV do
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
`,
);
