/**
 * ARGV: prefix, workerId, limit, leaseMs, tokenBase. Returns { now, then id, fields per claimed
 * dispatch }, the fields as read before the claim: the client applies the claim (status, token =
 * tokenBase:<n-th claimed>, claimedBy, leaseUntil = now + leaseMs, updatedAt = now). Pops the head of
 * ready; an entry whose thread has a claim is dropped (see the prelude), a stale one too.
 */
export const CLAIM = `
local worker, limit, lease_ms, token_base = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local now = now_ms()
local bad_lease = lease_out_of_range(now, lease_ms)
if bad_lease then return bad_lease end
-- Fallen due (in availableAt order, not queue order): each goes into its thread queue, then each
-- thread without a claim gets its head readied once (one ready entry per thread, whatever the backlog).
local fallen_due = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', DELAYED, '-inf', num(now), 'LIMIT', 0, 1000)) do
  redis.call('ZREM', DELAYED, id)
  local q = redis.call('HMGET', dkey(id), 't', 'q', 's')
  if q[1] and q[3] == 'queued' then
    redis.call('ZREM', tlkey(q[1]), id)
    redis.call('ZADD', tqkey(q[1]), q[2], id)
    fallen_due[q[1]] = true
  end
end
for thread in pairs(fallen_due) do
  if not thread_claimed(thread) then
    local head = redis.call('ZRANGE', tqkey(thread), 0, 0, 'WITHSCORES')
    redis.call('ZADD', READY, head[2], head[1])
  end
end
local lease = num(now + lease_ms)
local out = { num(now) }
local claimed = 0
while claimed < limit do
  local head = redis.call('ZPOPMIN', READY, limit - claimed)
  if #head == 0 then break end
  for i = 1, #head, 2 do
    local h = read(head[i])
    if h and h.s == 'queued' and claim_thread(h.t, h.id) then
      claimed = claimed + 1
      claim_one(h, now, worker, lease, token_base .. ':' .. claimed)
      out[#out + 1] = h.id
      out[#out + 1] = h.raw
    end
  end
end
-- Nothing left to claim: the wake-up markers are stale (see signal_work).
if redis.call('ZCARD', READY) == 0 then redis.call('DEL', WAKE) end
return out
`;

/** ARGV: prefix, dispatchId, workerId, leaseMs, token. Returns the dispatch, or false (not queued / thread busy). */
export const CLAIM_DISPATCH = `
local id, worker, lease_ms, token = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local now = now_ms()
local bad_lease = lease_out_of_range(now, lease_ms)
if bad_lease then return bad_lease end
local h = read(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.s ~= 'queued' then return false end
if not claim_thread(h.t, id) then return false end
claim_one(h, now, worker, num(now + lease_ms), token)
redis.call('ZREM', tlkey(h.t), id)
redis.call('ZREM', READY, id)
redis.call('ZREM', DELAYED, id)
return stored(id)
`;

/** ARGV: prefix, dispatchId. Queued only. */
export const CANCEL = `
local id = ARGV[2]
local now = now_ms()
local h = read(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.s ~= 'queued' then return fail('conflict', 'dispatch ' .. id .. ' is ' .. h.s .. ', not queued') end
finish(h, 'cancelled', now)
return stored(id)
`;

/**
 * ARGV: prefix, dispatchId, runId, requeueDispatchId. Dead letters only; sets the requeue ids once
 * (a dead letter already marked is returned as is), leaving `u` alone: purge orders by it.
 */
export const MARK_REQUEUED = `
local id = ARGV[2]
local h = read(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.s ~= 'dead_letter' then return fail('conflict', 'dispatch ' .. id .. ' is ' .. h.s .. ', not a dead letter') end
if not h.qr then redis.call('HSET', dkey(id), 'qr', ARGV[3], 'qd', ARGV[4]) end
return stored(id)
`;

/** ARGV: prefix, threadId. Returns { epoch, supersededCount, activeDispatch fields|false, its id|false }. */
export const INTERRUPT = `
local thread = ARGV[2]
local now = now_ms()
local epoch = redis.call('HINCRBY', THREADS, 'e:' .. thread, 1)
local count = 0
for _, key in ipairs({ tqkey(thread), tlkey(thread) }) do
  for _, id in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    local h = read(id)
    if h then
      finish(h, 'superseded', now)
      count = count + 1
    end
  end
end
-- Its claim (if any) now belongs to an older epoch: marked so the fencing check sees it (see fenced).
local claimed = redis.call('HGET', THREADS, 'c:' .. thread)
if claimed and redis.call('EXISTS', dkey(claimed)) == 1 then
  redis.call('HSET', dkey(claimed), 'z', '1')
  return { epoch, count, stored(claimed), claimed }
end
return { epoch, count, false, false }
`;

/** ARGV: prefix, dispatchId. Claimed with an epoch older than its thread's only. */
export const SUPERSEDE_CLAIMED = `
local id = ARGV[2]
local now = now_ms()
local h = read(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.s ~= 'claimed' then return fail('conflict', 'dispatch ' .. id .. ' is ' .. h.s .. ', not claimed') end
with_inputs(h)
if tonumber(h.e) >= thread_epoch(h.t) then
  return fail('conflict', 'dispatch ' .. id .. ' belongs to the current epoch; interrupt the thread first')
end
release(h)
finish(h, 'superseded', now)
return stored(id)
`;
