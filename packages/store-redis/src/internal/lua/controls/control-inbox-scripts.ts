import { defineMutatingScript } from '../idempotent-script';
import { defineLuaScript } from '../lua-script';

/**
 * Keys (see run-keys.ts): `P ctq:<r>` (list, pending ids in arrival order), `P cte:<r>` (hash, id ->
 * entry JSON), `P ctc:<r>` (hash, decision target -> id of its pending decision; the target is the
 * contract's `decisionTarget`: `call:<toolCallId>`, or `ticket:<ticketId>` for a decision naming no
 * call), `P ctk:<r>` (hash, id -> `<kind>\n<decision target>`); wake-ups on the channel `P ctl:<r>`. ARGV of every script:
 * prefix, runId, queueKey, entriesKey, callsKey, kindsKey, ... Entry JSON is built by the caller and
 * stored verbatim; the scripts never decode it (Lua's cjson rejects some escapes JSON.stringify
 * writes), and each checks everything before its first write, so an error leaves nothing half-done.
 */
const PRELUDE = `
local r, q, e, c, k = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
`;

/**
 * ARGV: ..., channel, eventMetaKey, id, kind, decision target ('' unless a decision), entryJson.
 * 'stored' | 'duplicate'. When the run's event log is finished (its meta key has a TTL), the inbox
 * keys get the same TTL, so a command that arrives late expires with the run.
 */
export const PUT_CONTROL = defineMutatingScript(
  'controls.put',
  `${PRELUDE}
local channel, meta, id, kind, call = ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11]
local tag = kind .. '\\n' .. call
local earlier = redis.call('HGET', k, id)
if earlier then
  if earlier == tag then return 'duplicate' end
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
redis.call('HSET', e, id, ARGV[12])
redis.call('HSET', k, id, tag)
redis.call('RPUSH', q, id)
local ttl = redis.call('PTTL', meta)
if ttl > 0 then
  for _, key in ipairs({ q, e, c, k }) do redis.call('PEXPIRE', key, ttl) end
end
redis.call('PUBLISH', channel, id)
return 'stored'
`,
);

/** ARGV: prefix, runId, queueKey, entriesKey, callsKey, kindsKey. The pending entry JSONs in arrival order. */
export const PEEK_CONTROLS = defineLuaScript(`${PRELUDE}
local entries = {}
for _, id in ipairs(redis.call('LRANGE', q, 0, -1)) do
  local json = redis.call('HGET', e, id)
  if json then table.insert(entries, json) end
end
return entries
`);

/**
 * ARGV: ..., id... Removes exactly those entries; unknown ids are ignored. The target of a
 * decision is what `put` recorded beside it (the text after the first newline of its tag).
 */
export const REMOVE_CONTROLS = defineMutatingScript(
  'controls.remove',
  `${PRELUDE}
for i = 7, #ARGV do
  local id = ARGV[i]
  local tag = redis.call('HGET', k, id)
  if tag then
    local newline = string.find(tag, '\\n', 1, true)
    local call = string.sub(tag, newline + 1)
    local kind = string.sub(tag, 1, newline - 1)
    if kind == 'decision' and redis.call('HGET', c, call) == id then redis.call('HDEL', c, call) end
    redis.call('HDEL', e, id)
    redis.call('HDEL', k, id)
    redis.call('LREM', q, 1, id)
  end
end
return 1
`,
);
