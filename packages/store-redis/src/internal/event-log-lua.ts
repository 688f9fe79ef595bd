import { defineLuaScript } from './lua-script';

/**
 * Keys: `P ev:<run>` (a stream, entry id `0-<seq>`, field `e`) and `P evm:<run>` (hash: `last` seq,
 * `finished`, `fence` = the highest run fence a write presented). Every script checks the fence first
 * (a lower one → stale_claim, nothing written) and raises the stored one to the writer's.
 */
const FENCE_PRELUDE = `
local meta = ARGV[1] .. 'evm:' .. ARGV[2]
local function check_fence(given)
  local current = tonumber(redis.call('HGET', meta, 'fence') or '0')
  if given < current then
    return redis.error_reply('AWAKEN stale_claim the event log of run ' .. ARGV[2] .. ' is at fence ' ..
      string.format('%.0f', current) .. ', the writer has ' .. string.format('%.0f', given))
  end
  return nil
end
local function raise_fence(given)
  if given > 0 then redis.call('HSET', meta, 'fence', string.format('%.0f', given)) end
end
`;

/**
 * ARGV: prefix, runId, fence, firstSeq, eventJson... Rejects a lower fence or a batch that does not
 * continue the stored last seq, before writing anything.
 */
export const APPEND_EVENTS = defineLuaScript(`${FENCE_PRELUDE}
local stream = ARGV[1] .. 'ev:' .. ARGV[2]
local fence = tonumber(ARGV[3])
local stale = check_fence(fence)
if stale then return stale end
if #ARGV < 5 then return 0 end
local first = tonumber(ARGV[4])
local state = redis.call('HMGET', meta, 'last', 'finished')
local last = tonumber(state[1] or '0')
if state[2] == '1' then
  return redis.error_reply('AWAKEN conflict event log of run ' .. ARGV[2] .. ' is finished')
end
if first ~= last + 1 then
  return redis.error_reply('AWAKEN conflict event log of run ' .. ARGV[2] .. ' is at seq ' .. last ..
    ', append starts at ' .. first)
end
for i = 5, #ARGV do
  redis.call('XADD', stream, '0-' .. string.format('%.0f', first + i - 5), 'e', ARGV[i])
end
redis.call('HSET', meta, 'last', string.format('%.0f', first + #ARGV - 5))
raise_fence(fence)
return 1
`);

/**
 * ARGV: prefix, runId, ttlMs, fence. Marks the log finished and lets both keys expire. The first finish
 * adds an end marker entry (`0-<last + 1>`, field `end`, never returned as an event) so that tails
 * blocked in XREAD wake up; appends are rejected from then on, so the id is never wanted by an event.
 */
export const FINISH_LOG = defineLuaScript(`${FENCE_PRELUDE}
local stream = ARGV[1] .. 'ev:' .. ARGV[2]
local fence = tonumber(ARGV[4])
local stale = check_fence(fence)
if stale then return stale end
local state = redis.call('HMGET', meta, 'last', 'finished')
if state[2] ~= '1' then
  redis.call('XADD', stream, '0-' .. string.format('%.0f', tonumber(state[1] or '0') + 1), 'end', '1')
end
redis.call('HSET', meta, 'finished', '1')
raise_fence(fence)
redis.call('PEXPIRE', meta, ARGV[3])
redis.call('PEXPIRE', stream, ARGV[3])
return 1
`);

/** ARGV: prefix, runId, fence. Raises the fence and returns the last seq. */
export const RAISE_FENCE = defineLuaScript(`${FENCE_PRELUDE}
local fence = tonumber(ARGV[3])
local stale = check_fence(fence)
if stale then return stale end
raise_fence(fence)
return tonumber(redis.call('HGET', meta, 'last') or '0')
`);
