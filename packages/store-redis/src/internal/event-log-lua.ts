import { defineLuaScript } from './lua-script';

/**
 * ARGV: prefix, runId, firstSeq, eventJson... Keys: `P ev:<run>` (a stream, entry id `0-<seq>`,
 * field `e`) and `P evm:<run>` (hash: `last` seq, `finished`). Rejects a batch that does not
 * continue the stored last seq, before writing anything.
 */
export const APPEND_EVENTS = defineLuaScript(`
local stream = ARGV[1] .. 'ev:' .. ARGV[2]
local meta = ARGV[1] .. 'evm:' .. ARGV[2]
local first = tonumber(ARGV[3])
local state = redis.call('HMGET', meta, 'last', 'finished')
local last = tonumber(state[1] or '0')
if state[2] == '1' then
  return redis.error_reply('AWAKEN conflict event log of run ' .. ARGV[2] .. ' is finished')
end
if first ~= last + 1 then
  return redis.error_reply('AWAKEN conflict event log of run ' .. ARGV[2] .. ' is at seq ' .. last ..
    ', append starts at ' .. first)
end
for i = 4, #ARGV do
  redis.call('XADD', stream, '0-' .. string.format('%.0f', first + i - 4), 'e', ARGV[i])
end
redis.call('HSET', meta, 'last', string.format('%.0f', first + #ARGV - 4))
return 1
`);

/**
 * ARGV: prefix, runId, ttlMs. Marks the log finished and lets both keys expire. The first finish adds
 * an end marker entry (`0-<last + 1>`, field `end`, never returned as an event) so that tails blocked
 * in XREAD wake up; appends are rejected from then on, so the id is never wanted by an event.
 */
export const FINISH_LOG = defineLuaScript(`
local stream = ARGV[1] .. 'ev:' .. ARGV[2]
local meta = ARGV[1] .. 'evm:' .. ARGV[2]
local state = redis.call('HMGET', meta, 'last', 'finished')
if state[2] ~= '1' then
  redis.call('XADD', stream, '0-' .. string.format('%.0f', tonumber(state[1] or '0') + 1), 'end', '1')
end
redis.call('HSET', meta, 'finished', '1')
redis.call('PEXPIRE', meta, ARGV[3])
redis.call('PEXPIRE', stream, ARGV[3])
return 1
`);
