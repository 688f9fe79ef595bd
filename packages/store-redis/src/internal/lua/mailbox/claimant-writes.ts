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
 * Records a run result on a fenced dispatch `h`: ARGV[first] is the result's runId, which must be the
 * dispatch's; ARGV[first + 1 .. last] are field/value pairs of the result to set (stored field names);
 * fields given with the value '\\0' are removed (a later result replaces an earlier one completely).
 * Returns the rejection text, before any write, when the run ids differ.
 */
const WRITE_RESULT = `
local function write_result(h, now, first, last)
  if ARGV[first] ~= with_inputs(h).r then
    return rejection('validation_failed', 'result of run ' .. ARGV[first] .. ' recorded on a dispatch of run ' .. h.r)
  end
  redis.call('HSET', dkey(h.id), 'rc', num(now), 'u', num(now))
  for i = first + 1, last, 2 do
    if ARGV[i + 1] == '\\0' then redis.call('HDEL', dkey(h.id), ARGV[i])
    else redis.call('HSET', dkey(h.id), ARGV[i], ARGV[i + 1]) end
  end
end
`;

/**
 * Batched: ARGV: prefix, then per ack: dispatchId, claimToken, the count n of result values that
 * follow ('0': none), and those n values (runId, then field/value pairs, see write_result). Acks them
 * in order, each fenced on its own (and run by per_item: one that fails leaves the others alone); an
 * ack with a result records it first, after the same fencing check. Returns { now, then per ack the
 * fields as read before it (without a result: the client applies the ack, status acked, updatedAt
 * now, no claimToken, no leaseUntil) or as stored after it (with a result), or its rejection text }.
 */
export const ACK = `${WRITE_RESULT}
local now = now_ms()
local function ack(id, token, first, last)
  local h, rejected = fenced(id, token, now)
  if not h then return rejected end
  if last >= first then
    local bad = write_result(h, now, first, last)
    if bad then return bad end
  end
  release(h)
  finish(h, 'acked', now)
  if last >= first then return stored(id) end
  return h.raw
end
local out = { num(now) }
local i = 2
while i <= #ARGV do
  local count = tonumber(ARGV[i + 2])
  out[#out + 1] = per_item(ack, ARGV[i], ARGV[i + 1], i + 3, i + 2 + count)
  i = i + 3 + count
end
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

/** ARGV[4]: the result's runId, ARGV[5..]: field/value pairs (see write_result). */
export const RECORD_RUN_RESULT = `${WRITE_RESULT}${FENCE}
local bad = write_result(h, now, 4, #ARGV)
if bad then return redis.error_reply(bad) end
return stored(id)
`;
