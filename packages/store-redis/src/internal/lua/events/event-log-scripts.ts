import { defineMutatingScript } from '../idempotent-script';

/**
 * Keys (see run-keys.ts): `P ev:<run>` (a stream, entry id `0-<seq>`, field `e`) and `P evm:<run>`
 * (hash: `last` seq, `finished`, `fence` = the highest run fence a write presented). ARGV of every
 * script: prefix, runId, streamKey, metaKey, fence, ... Every script checks the fence first (a lower
 * one → stale_claim, nothing written) and raises the stored one to the writer's.
 */
const FENCE_PRELUDE = `
local run, stream, meta, fence = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local function check_fence()
  local current = tonumber(redis.call('HGET', meta, 'fence') or '0')
  if fence < current then
    return redis.error_reply('AWAKEN stale_claim the event log of run ' .. run .. ' is at fence ' ..
      string.format('%.0f', current) .. ', the writer has ' .. string.format('%.0f', fence))
  end
  return nil
end
local function raise_fence()
  if fence > 0 then redis.call('HSET', meta, 'fence', string.format('%.0f', fence)) end
end
`;

/**
 * ARGV: prefix, runId, streamKey, metaKey, fence, firstSeq, consistent ('1' when the batch's events
 * are all of this run with consecutive seqs, as the caller checked), eventJson... Checks, in the
 * memory store's order: the fence, then (events given) a finished log, the batch, the seq it starts
 * at; rejects before writing anything. No events: only the fence check.
 */
export const APPEND_EVENTS_BODY = `${FENCE_PRELUDE}
local stale = check_fence()
if stale then return stale end
if #ARGV < 8 then return 0 end
local first = tonumber(ARGV[6])
local state = redis.call('HMGET', meta, 'last', 'finished')
local last = tonumber(state[1] or '0')
if state[2] == '1' then
  return redis.error_reply('AWAKEN conflict event log of run ' .. run .. ' is finished')
end
if ARGV[7] ~= '1' then
  return redis.error_reply('AWAKEN conflict events must belong to run ' .. run .. ' with consecutive seq')
end
if first ~= last + 1 then
  return redis.error_reply('AWAKEN conflict event log of run ' .. run .. ' is at seq ' .. last ..
    ', append starts at ' .. first)
end
for i = 8, #ARGV do
  redis.call('XADD', stream, '0-' .. string.format('%.0f', first + i - 8), 'e', ARGV[i])
end
redis.call('HSET', meta, 'last', string.format('%.0f', first + #ARGV - 8))
raise_fence()
return 1
`;

export const APPEND_EVENTS = defineMutatingScript('events.append', APPEND_EVENTS_BODY);

/**
 * ARGV: prefix, runId, streamKey, metaKey, fence, ttlMs, inboxKey... Marks the log finished and lets
 * its keys and the run's control inbox keys expire after ttlMs (0: at once). The first finish adds an
 * end marker entry (`0-<last + 1>`, field `end`, never returned as an event) so that tails blocked in
 * XREAD wake up; appends are rejected from then on, so the id is never wanted by an event.
 */
export const FINISH_LOG = defineMutatingScript(
  'events.finish',
  `${FENCE_PRELUDE}
local stale = check_fence()
if stale then return stale end
local state = redis.call('HMGET', meta, 'last', 'finished')
if state[2] ~= '1' then
  redis.call('XADD', stream, '0-' .. string.format('%.0f', tonumber(state[1] or '0') + 1), 'end', '1')
end
redis.call('HSET', meta, 'finished', '1')
raise_fence()
local ttl = ARGV[6]
redis.call('PEXPIRE', meta, ttl)
redis.call('PEXPIRE', stream, ttl)
for i = 7, #ARGV do redis.call('PEXPIRE', ARGV[i], ttl) end
return 1
`,
);

/** ARGV: prefix, runId, streamKey, metaKey, fence. Raises the fence and returns the last seq. */
export const RAISE_FENCE = defineMutatingScript(
  'events.raiseFence',
  `${FENCE_PRELUDE}
local stale = check_fence()
if stale then return stale end
raise_fence()
return tonumber(redis.call('HGET', meta, 'last') or '0')
`,
);
