import { defineLuaScript } from '../lua-script';
import { CONTROL_INBOX_PRELUDE } from './control-inbox-prelude';

/** ARGV: prefix, runId, queueKey, entriesKey, callsKey, kindsKey. The pending entry JSONs in arrival order. */
export const PEEK_CONTROLS = defineLuaScript(`${CONTROL_INBOX_PRELUDE}
local entries = {}
for _, id in ipairs(redis.call('LRANGE', q, 0, -1)) do
  local json = redis.call('HGET', e, id)
  if json then table.insert(entries, json) end
end
return entries
`);
