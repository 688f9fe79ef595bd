import { defineMutatingScript } from '../idempotent-script';
import { EVENT_LOG_PRELUDE } from './event-log-prelude';

/**
 * ARGV: prefix, runId, streamKey, metaKey, fence, ttlMs, inboxKey... Marks the log finished and lets
 * its keys and the run's control inbox keys expire after ttlMs (0: at once). The first finish adds an
 * end marker entry (`0-<last + 1>`, field `end`, never returned as an event) so that tails blocked in
 * XREAD wake up; appends are rejected from then on, so the id is never wanted by an event.
 */
export const FINISH_LOG_BODY = `${EVENT_LOG_PRELUDE}
local stale = check_fence()
if stale then return stale end
local state = redis.call('HMGET', meta, 'last', 'finished')
if state[2] ~= '1' then
  redis.call('XADD', stream, '0-' .. num(tonumber(state[1] or '0') + 1), 'end', '1')
end
redis.call('HSET', meta, 'finished', '1')
raise_fence()
local ttl = ARGV[6]
redis.call('PEXPIRE', meta, ttl)
redis.call('PEXPIRE', stream, ttl)
for i = 7, #ARGV do redis.call('PEXPIRE', ARGV[i], ttl) end
return 1
`;

export const FINISH_LOG = defineMutatingScript('events.finish', FINISH_LOG_BODY);
