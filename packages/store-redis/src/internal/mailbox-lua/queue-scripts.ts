import { PRELUDE } from './prelude';

/** ARGV: prefix, dispatchId, threadId, runId, priority, dedupeKey|'', availableAt|'', maxAttempts. */
export const ENQUEUE = `${PRELUDE}
local id, thread, run_id = ARGV[2], ARGV[3], ARGV[4]
local priority, dedupe, available, max_attempts = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local now = now_ms()
if redis.call('EXISTS', dkey(id)) == 1 then return fail('conflict', 'dispatch ' .. id .. ' already exists') end
local tk = tkey(thread)
if dedupe ~= '' then
  local holder = redis.call('HGET', tk .. ':dd', dedupe)
  if holder then
    return fail('dedupe_conflict', 'dedupe key ' .. dedupe .. ' is held by dispatch ' .. holder)
  end
end
local available_at = now
if available ~= '' then available_at = tonumber(available) end
local seq = redis.call('INCR', P .. 'seq')
local fields = { 'dispatchId', id, 'threadId', thread, 'runId', run_id, 'priority', priority,
  'dispatchEpoch', num(thread_epoch(thread)), 'status', 'queued', 'availableAt', num(available_at),
  'attemptCount', '0', 'maxAttempts', max_attempts, 'createdAt', num(now), 'updatedAt', num(now),
  'seq', num(seq) }
if dedupe ~= '' then
  table.insert(fields, 'dedupeKey')
  table.insert(fields, dedupe)
  redis.call('HSET', tk .. ':dd', dedupe, id)
end
redis.call('HSET', dkey(id), unpack(fields))
redis.call('ZADD', tk .. ':a', num(seq), id)
place_queued({ dispatchId = id, threadId = thread, priority = priority, seq = num(seq) }, now, available_at)
return reply(id)
`;

/** ARGV: prefix, workerId, limit, leaseMs, tokenBase. Returns the claimed dispatches. */
export const CLAIM = `${PRELUDE}
local worker, limit, lease_ms, token_base = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local now = now_ms()
for _, id in ipairs(redis.call('ZRANGEBYSCORE', DELAYED, '-inf', num(now), 'LIMIT', 0, 1000)) do
  redis.call('ZREM', DELAYED, id)
  local q = redis.call('HMGET', dkey(id), 'threadId', 'priority', 'seq')
  if q[1] and not thread_claimed(q[1]) then redis.call('ZADD', READY, ready_score(q[2], q[3]), id) end
end
local out = {}
while #out < limit do
  local head = redis.call('ZRANGE', READY, 0, limit - #out - 1)
  if #head == 0 then break end
  for _, id in ipairs(head) do
    redis.call('ZREM', READY, id)
    local h = get_dispatch(id)
    if h and h.status == 'queued' and not thread_claimed(h.threadId) then
      claim_one(h, now, worker, lease_ms, token_base .. ':' .. (#out + 1))
      table.insert(out, reply(id))
      if #out >= limit then break end
    end
  end
end
return out
`;

/** ARGV: prefix, dispatchId, workerId, leaseMs, token. Returns the dispatch, or false (not queued / thread busy). */
export const CLAIM_DISPATCH = `${PRELUDE}
local id, worker, lease_ms, token = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local now = now_ms()
local h = get_dispatch(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.status ~= 'queued' or thread_claimed(h.threadId) then return false end
claim_one(h, now, worker, lease_ms, token)
return reply(id)
`;

/** ARGV: prefix, dispatchId. Queued only. */
export const CANCEL = `${PRELUDE}
local id = ARGV[2]
local now = now_ms()
local h = get_dispatch(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.status ~= 'queued' then return fail('conflict', 'dispatch ' .. id .. ' is ' .. h.status .. ', not queued') end
finish(h, 'cancelled', now)
return reply(id)
`;

/** ARGV: prefix, threadId. Returns { epoch, supersededCount, activeDispatch|false }. */
export const INTERRUPT = `${PRELUDE}
local thread = ARGV[2]
local now = now_ms()
local tk = tkey(thread)
local epoch = redis.call('HINCRBY', tk, 'epoch', 1)
local queued = redis.call('ZRANGE', tk .. ':q', 0, -1)
for _, id in ipairs(queued) do
  local h = get_dispatch(id)
  if h then finish(h, 'superseded', now) end
end
local active = false
local claimed = redis.call('HGET', tk, 'claimed')
if claimed then active = reply(claimed) end
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
return reply(id)
`;
