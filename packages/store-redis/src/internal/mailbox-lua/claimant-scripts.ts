import { PRELUDE } from './prelude';

/**
 * Claimant writes. Each opens with the fencing check (token, lease held at Redis TIME, epoch) and
 * writes nothing when it fails. ARGV: prefix, dispatchId, claimToken, ...
 */
const FENCE = `${PRELUDE}
local id, token = ARGV[2], ARGV[3]
local now = now_ms()
local h, rejected = fenced(id, token, now)
if not h then return rejected end
`;

export const ACK = `${FENCE}
release(h, now)
finish(h, 'acked', now)
return reply(id)
`;

/** ARGV[4]: error, ARGV[5]: retryAt|''. */
export const NACK = `${FENCE}
local attempts = tonumber(h.attemptCount) + 1
redis.call('HSET', dkey(id), 'attemptCount', num(attempts), 'lastError', ARGV[4], 'updatedAt', num(now))
release(h, now)
if attempts >= tonumber(h.maxAttempts) then
  finish(h, 'dead_letter', now)
else
  local retry_at = now
  if ARGV[5] ~= '' then retry_at = tonumber(ARGV[5]) end
  redis.call('HSET', dkey(id), 'status', 'queued', 'availableAt', num(retry_at))
  place_queued(h, now, retry_at)
end
return reply(id)
`;

/** ARGV[4]: error. */
export const DEAD_LETTER = `${FENCE}
redis.call('HSET', dkey(id), 'lastError', ARGV[4])
release(h, now)
finish(h, 'dead_letter', now)
return reply(id)
`;

/** ARGV[4]: leaseMs. */
export const EXTEND_LEASE = `${FENCE}
local lease = now + tonumber(ARGV[4])
redis.call('HSET', dkey(id), 'leaseUntil', num(lease), 'updatedAt', num(now))
redis.call('ZADD', LEASES, num(lease), id)
return reply(id)
`;

/** ARGV[4]: dispatchInstanceId. */
export const RECORD_DISPATCH_START = `${FENCE}
redis.call('HSET', dkey(id), 'dispatchInstanceId', ARGV[4], 'runStatus', 'running', 'updatedAt', num(now))
return reply(id)
`;

/**
 * ARGV[4]: the result's runId, which must be the dispatch's. ARGV[5..]: field/value pairs of the result to set; fields given with the value '\\0' are removed
 * (a later result replaces an earlier one completely).
 */
export const RECORD_RUN_RESULT = `${FENCE}
if ARGV[4] ~= h.runId then
  return fail('validation_failed', 'result of run ' .. ARGV[4] .. ' recorded on a dispatch of run ' .. h.runId)
end
redis.call('HSET', dkey(id), 'completedAt', num(now), 'updatedAt', num(now))
for i = 5, #ARGV, 2 do
  if ARGV[i + 1] == '\\0' then redis.call('HDEL', dkey(id), ARGV[i])
  else redis.call('HSET', dkey(id), ARGV[i], ARGV[i + 1]) end
end
return reply(id)
`;
