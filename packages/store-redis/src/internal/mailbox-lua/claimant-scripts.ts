/**
 * Claimant writes. Each opens with the fencing check (token, lease held at Redis TIME, epoch) and
 * writes nothing when it fails. ARGV: prefix, dispatchId, claimToken, ... Each replies with the
 * dispatch as written (HGETALL), except the batched ack.
 */
const FENCE = `
local id, token = ARGV[2], ARGV[3]
local now = now_ms()
local h, rejected = fenced(id, token, now)
if not h then return redis.error_reply(rejected) end
`;

/**
 * Batched: ARGV: prefix, then dispatchId, claimToken per ack. Acks them in order, each fenced on its
 * own (and run by per_item: one that fails leaves the others alone). Returns { now, then per ack the
 * fields as read before it, or its rejection text }: the client applies the ack (status acked,
 * updatedAt now, no claimToken, no leaseUntil).
 */
export const ACK = `
local now = now_ms()
local function ack(id, token)
  local h, rejected = fenced(id, token, now)
  if not h then return rejected end
  release(h)
  finish(h, 'acked', now)
  return h.raw
end
local out = { num(now) }
for i = 2, #ARGV, 2 do out[#out + 1] = per_item(ack, ARGV[i], ARGV[i + 1]) end
return out
`;

/** ARGV[4]: error, ARGV[5]: retryAt|''. */
export const NACK = `${FENCE}
local attempts = tonumber(h.n) + 1
with_inputs(h)
redis.call('HSET', dkey(id), 'n', num(attempts), 'x', ARGV[4], 'u', num(now))
release(h)
if attempts >= tonumber(h.m) then
  finish(h, 'dead_letter', now)
else
  local retry_at = now
  if ARGV[5] ~= '' then retry_at = tonumber(ARGV[5]) end
  redis.call('HSET', dkey(id), 's', 'queued', 'a', num(retry_at), 'ct', '', 'l', '')
  place_queued(id, h.t, h.q, now, retry_at)
end
return stored(id)
`;

/** ARGV[4]: error. */
export const DEAD_LETTER = `${FENCE}
redis.call('HSET', dkey(id), 'x', ARGV[4])
release(h)
finish(h, 'dead_letter', now)
return stored(id)
`;

/** ARGV[4]: leaseMs. */
export const EXTEND_LEASE = `${FENCE}
local bad_lease = lease_out_of_range(now, tonumber(ARGV[4]))
if bad_lease then return bad_lease end
local lease = num(now + tonumber(ARGV[4]))
redis.call('HSET', dkey(id), 'l', lease, 'u', num(now))
redis.call('ZADD', LEASES, lease, id)
return stored(id)
`;

/** ARGV[4]: dispatchInstanceId. */
export const RECORD_DISPATCH_START = `${FENCE}
redis.call('HSET', dkey(id), 'ri', ARGV[4], 'rs', 'running', 'u', num(now))
return stored(id)
`;

/**
 * ARGV[4]: the result's runId, which must be the dispatch's. ARGV[5..]: field/value pairs of the
 * result to set (stored field names); fields given with the value '\\0' are removed (a later result
 * replaces an earlier one completely).
 */
export const RECORD_RUN_RESULT = `${FENCE}
if ARGV[4] ~= with_inputs(h).r then
  return fail('validation_failed', 'result of run ' .. ARGV[4] .. ' recorded on a dispatch of run ' .. h.r)
end
redis.call('HSET', dkey(id), 'rc', num(now), 'u', num(now))
for i = 5, #ARGV, 2 do
  if ARGV[i + 1] == '\\0' then redis.call('HDEL', dkey(id), ARGV[i])
  else redis.call('HSET', dkey(id), ARGV[i], ARGV[i + 1]) end
end
return stored(id)
`;
