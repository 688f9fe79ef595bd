import { defineMutatingScript } from '../idempotent-script';
import { EVENT_LOG_PRELUDE } from './event-log-prelude';

/**
 * ARGV: prefix, runId, streamKey, metaKey, fence, firstSeq, consistent ('1' when the batch's events
 * are all of this run with consecutive seqs, as the caller checked), eventJson... Checks, in the
 * memory store's order: the fence, then (events given) a finished log, the batch, the seq it starts
 * at; rejects before writing anything. No events: only the fence check.
 */
export const APPEND_EVENTS_BODY = `${EVENT_LOG_PRELUDE}
-- One read of the log's state: the fence (checked first, as check_fence does), then the batch's.
local state = redis.call('HMGET', meta, 'fence', 'last', 'finished')
local stale = stale_fence(tonumber(state[1] or '0'))
if stale then return stale end
if #ARGV < 8 then return 0 end
local first = tonumber(ARGV[6])
local last = tonumber(state[2] or '0')
if state[3] == '1' then
  return fail('conflict', 'event log of run ' .. run .. ' is finished')
end
if ARGV[7] ~= '1' then
  return fail('conflict', 'events must belong to run ' .. run .. ' with consecutive seq')
end
if first ~= last + 1 then
  return fail('conflict', 'event log of run ' .. run .. ' is at seq ' .. last ..
    ', append starts at ' .. first)
end
for i = 8, #ARGV do
  redis.call('XADD', stream, '0-' .. num(first + i - 8), 'e', ARGV[i])
end
-- the new last seq and the raised fence (raise_fence) in one write
if fence > 0 then redis.call('HSET', meta, 'last', num(first + #ARGV - 8), 'fence', num(fence))
else redis.call('HSET', meta, 'last', num(first + #ARGV - 8)) end
return 1
`;

export const APPEND_EVENTS = defineMutatingScript('events.append', APPEND_EVENTS_BODY);
