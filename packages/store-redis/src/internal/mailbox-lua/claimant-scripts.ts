import { PRELUDE } from './prelude';

/**
 * Claimant writes. Each opens with the fencing check (token, lease held at Redis TIME, epoch) and
 * writes nothing when it fails. ARGV: prefix, dispatchId, claimToken, ... Each replies with the
 * dispatch as written (positional, see `pack`).
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
return pack(h)
`;

/** ARGV[4]: error, ARGV[5]: retryAt|''. */
export const NACK = `${FENCE}
local attempts = tonumber(h.attemptCount) + 1
hset(h, 'attemptCount', num(attempts), 'lastError', ARGV[4], 'updatedAt', num(now))
release(h, now)
if attempts >= tonumber(h.maxAttempts) then
  finish(h, 'dead_letter', now)
else
  local retry_at = now
  if ARGV[5] ~= '' then retry_at = tonumber(ARGV[5]) end
  hset(h, 'status', 'queued', 'availableAt', num(retry_at))
  place_queued(h, now, retry_at)
end
return pack(h)
`;

/** ARGV[4]: error. */
export const DEAD_LETTER = `${FENCE}
hset(h, 'lastError', ARGV[4])
release(h, now)
finish(h, 'dead_letter', now)
return pack(h)
`;

/** ARGV[4]: leaseMs. */
export const EXTEND_LEASE = `${FENCE}
local bad_lease = lease_out_of_range(now, tonumber(ARGV[4]))
if bad_lease then return bad_lease end
local lease = num(now + tonumber(ARGV[4]))
hset(h, 'leaseUntil', lease, 'updatedAt', num(now))
redis.call('ZADD', LEASES, lease, id)
return pack(h)
`;

/** ARGV[4]: dispatchInstanceId. */
export const RECORD_DISPATCH_START = `${FENCE}
hset(h, 'dispatchInstanceId', ARGV[4], 'runStatus', 'running', 'updatedAt', num(now))
return pack(h)
`;

/**
 * ARGV[4]: the result's runId, which must be the dispatch's. ARGV[5..]: field/value pairs of the result to set; fields given with the value '\\0' are removed
 * (a later result replaces an earlier one completely).
 */
export const RECORD_RUN_RESULT = `${FENCE}
local run_id = h.runId
if ARGV[4] ~= run_id then
  return fail('validation_failed', 'result of run ' .. ARGV[4] .. ' recorded on a dispatch of run ' .. run_id)
end
hset(h, 'completedAt', num(now), 'updatedAt', num(now))
for i = 5, #ARGV, 2 do
  if ARGV[i + 1] == '\\0' then hdel(h, ARGV[i])
  else hset(h, ARGV[i], ARGV[i + 1]) end
end
return pack(h)
`;
