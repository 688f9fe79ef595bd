import { PRELUDE } from './prelude';

/**
 * ARGV: prefix, dispatchId, threadId, runId, priority, dedupeKey|'', availableAt|'', maxAttempts.
 * Returns { dispatchEpoch, now }: the caller knows the rest.
 */
export const ENQUEUE = `${PRELUDE}
local id, thread, run_id = ARGV[2], ARGV[3], ARGV[4]
local priority, dedupe, available, max_attempts = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local now = now_ms()
if redis.call('EXISTS', dkey(id)) == 1 then return fail('conflict', 'dispatch ' .. id .. ' already exists') end
local tk = tkey(thread)
if dedupe ~= '' then
  local holder = redis.call('HGET', tddkey(thread), dedupe)
  if holder then
    return fail('dedupe_conflict', 'dedupe key ' .. dedupe .. ' is held by dispatch ' .. holder)
  end
end
local available_at = now
if available ~= '' then available_at = tonumber(available) end
local seq = redis.call('INCR', P .. 'seq')
local thread_state = redis.call('HMGET', tk, 'epoch', 'claimed')
local epoch, stamp = thread_state[1] or '0', num(now)
local h = { dispatchId = id, threadId = thread, score = num(tonumber(priority) * PRIORITY_WEIGHT + seq),
  _claimed = thread_state[2] }
local fields = { 'dispatchId', id, 'threadId', thread, 'runId', run_id, 'priority', priority, 'maxAttempts', max_attempts,
  'score', h.score, 'dispatchEpoch', epoch,
  'status', 'queued', 'availableAt', num(available_at), 'attemptCount', '0', 'createdAt', stamp,
  'updatedAt', stamp }
if dedupe ~= '' then
  table.insert(fields, 'dedupeKey')
  table.insert(fields, dedupe)
  redis.call('HSET', tddkey(thread), dedupe, id)
end
redis.call('HSET', dkey(id), unpack(fields))
redis.call('ZADD', takey(thread), seq, id)
place_queued(h, now, available_at)
return { epoch, stamp }
`;

/**
 * ARGV: prefix, workerId, limit, leaseMs, tokenBase. Returns the claimed dispatches. Pops the head
 * of ready; an entry whose thread is claimed is dropped (parked, see the prelude), a stale one too.
 */
export const CLAIM = `${PRELUDE}
local worker, limit, lease_ms, token_base = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local now = now_ms()
local bad_lease = lease_out_of_range(now, lease_ms)
if bad_lease then return bad_lease end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', DELAYED, '-inf', num(now), 'LIMIT', 0, 1000)) do
  redis.call('ZREM', DELAYED, id)
  local q = redis.call('HMGET', dkey(id), 'threadId', 'score')
  if q[1] and not thread_claimed(q[1]) then redis.call('ZADD', READY, q[2], id) end
end
local out = {}
while #out < limit do
  local head = redis.call('ZPOPMIN', READY, limit - #out)
  if #head == 0 then break end
  for i = 1, #head, 2 do
    local id = head[i]
    local h = get_dispatch(id)
    if h and h.status == 'queued' and redis.call('HSETNX', tkey(h.threadId), 'claimed', id) == 1 then
      claim_one(h, now, worker, lease_ms, token_base .. ':' .. (#out + 1))
      out[#out + 1] = pack(h)
    end
  end
end
-- Nothing left to claim: the wake-up markers are stale (see signal_work).
if redis.call('ZCARD', READY) == 0 then redis.call('DEL', WAKE) end
return out
`;

/** ARGV: prefix, dispatchId, workerId, leaseMs, token. Returns the dispatch, or false (not queued / thread busy). */
export const CLAIM_DISPATCH = `${PRELUDE}
local id, worker, lease_ms, token = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local now = now_ms()
local bad_lease = lease_out_of_range(now, lease_ms)
if bad_lease then return bad_lease end
local h = get_dispatch(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.status ~= 'queued' then return false end
if redis.call('HSETNX', tkey(h.threadId), 'claimed', id) == 0 then return false end
claim_one(h, now, worker, lease_ms, token)
redis.call('ZREM', READY, id)
redis.call('ZREM', DELAYED, id)
return pack(h)
`;

/** ARGV: prefix, dispatchId. Queued only. */
export const CANCEL = `${PRELUDE}
local id = ARGV[2]
local now = now_ms()
local h = get_dispatch(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.status ~= 'queued' then return fail('conflict', 'dispatch ' .. id .. ' is ' .. h.status .. ', not queued') end
finish(h, 'cancelled', now)
return pack(h)
`;

/** ARGV: prefix, threadId. Returns { epoch, supersededCount, activeDispatch|false }. */
export const INTERRUPT = `${PRELUDE}
local thread = ARGV[2]
local now = now_ms()
local tk = tkey(thread)
local epoch = redis.call('HINCRBY', tk, 'epoch', 1)
local queued = redis.call('ZRANGE', tqkey(thread), 0, -1)
for _, id in ipairs(queued) do
  local h = get_dispatch(id)
  if h then finish(h, 'superseded', now) end
end
local active = false
local claimed = redis.call('HGET', tk, 'claimed')
if claimed then
  local h = get_dispatch(claimed)
  if h then active = pack(h) end
end
return { epoch, #queued, active }
`;

/** ARGV: prefix, dispatchId. Claimed with an epoch older than its thread's only. */
export const SUPERSEDE_CLAIMED = `${PRELUDE}
local id = ARGV[2]
local now = now_ms()
local h = get_dispatch(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.status ~= 'claimed' then return fail('conflict', 'dispatch ' .. id .. ' is ' .. h.status .. ', not claimed') end
if tonumber(h.dispatchEpoch) >= thread_epoch(h.threadId) then
  return fail('conflict', 'dispatch ' .. id .. ' belongs to the current epoch; interrupt the thread first')
end
release(h, now)
finish(h, 'superseded', now)
return pack(h)
`;
