/**
 * Lua shared by every mailbox script. ARGV[1] is the key prefix. Key layout (P = prefix):
 *   P d:<id>        hash   one dispatch (RunDispatch fields + hidden `seq`, the enqueue order)
 *   P t:<thread>    hash   `epoch` (dispatch epoch) and `claimed` (the thread's one claimed dispatch)
 *   P t:<thread>:q  zset   the thread's queued dispatches by seq (interrupt, re-readying)
 *   P t:<thread>:a  zset   all the thread's dispatches by seq (listing)
 *   P t:<thread>:dd hash   dedupe key -> id of the non-terminal dispatch holding it
 *   P ready         zset   due, queued dispatches by priority * 2^44 + seq (claim order)
 *   P delayed       zset   queued dispatches by availableAt, not yet due
 *   P leases        zset   claimed dispatches by leaseUntil (reclaim)
 *   P terminal      zset   terminal dispatches by updatedAt (purge)
 *   P seq           string enqueue counter
 * Entries of a claimed thread found in `ready` are dropped ("parked") by claim and put back when the
 * claim ends, so one busy thread never makes claim scan its backlog twice.
 * Every script validates everything first and rejects with `AWAKEN <code> <message>` before writing.
 * All times come from Redis TIME, except in test-clock mode: then the caller passes KEYS[1] = `P clock`
 * and a millisecond value stored there (by the test harness, never a worker) freezes the store clock. Numbers are written with %.0f: Lua's default formatting keeps only
 * 14 significant digits.
 */
export const PRELUDE = `
local P = ARGV[1]
local READY, DELAYED, LEASES, TERMINAL = P .. 'ready', P .. 'delayed', P .. 'leases', P .. 'terminal'
local PRIORITY_WEIGHT = 17592186044416
local function num(n) return string.format('%.0f', n) end
local function now_ms()
  if #KEYS > 0 then
    local frozen = redis.call('GET', KEYS[1])
    if frozen then return tonumber(frozen) end
  end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function fail(code, message) return redis.error_reply('AWAKEN ' .. code .. ' ' .. message) end
local function dkey(id) return P .. 'd:' .. id end
local function tkey(thread) return P .. 't:' .. thread end
local function get_dispatch(id)
  local flat = redis.call('HGETALL', dkey(id))
  if #flat == 0 then return nil end
  local h = {}
  for i = 1, #flat, 2 do h[flat[i]] = flat[i + 1] end
  return h
end
local function reply(id) return redis.call('HGETALL', dkey(id)) end
local function thread_epoch(thread) return tonumber(redis.call('HGET', tkey(thread), 'epoch') or '0') end
local function thread_claimed(thread) return redis.call('HEXISTS', tkey(thread), 'claimed') == 1 end
local function ready_score(priority, seq) return num(tonumber(priority) * PRIORITY_WEIGHT + tonumber(seq)) end
local function is_terminal(status)
  return status == 'acked' or status == 'cancelled' or status == 'superseded' or status == 'dead_letter'
end

local function fenced(id, token, now)
  local h = get_dispatch(id)
  if not h then return nil, fail('not_found', 'dispatch ' .. id .. ' not found') end
  if h.status ~= 'claimed' or h.claimToken ~= token then
    return nil, fail('stale_claim', 'dispatch ' .. id .. ' is not claimed with this token')
  end
  if now > tonumber(h.leaseUntil) then return nil, fail('stale_claim', 'the lease of dispatch ' .. id .. ' expired') end
  if tonumber(h.dispatchEpoch) ~= thread_epoch(h.threadId) then
    return nil, fail('stale_claim', 'dispatch ' .. id .. ' belongs to an interrupted epoch')
  end
  return h
end

local function claim_one(h, now, worker, lease_ms, token)
  local id, tk = h.dispatchId, tkey(h.threadId)
  local lease = now + lease_ms
  redis.call('HSET', dkey(id), 'status', 'claimed', 'claimToken', token, 'claimedBy', worker,
    'leaseUntil', num(lease), 'updatedAt', num(now))
  redis.call('ZADD', LEASES, num(lease), id)
  redis.call('HSET', tk, 'claimed', id)
  redis.call('ZREM', tk .. ':q', id)
  redis.call('ZREM', READY, id)
  redis.call('ZREM', DELAYED, id)
end

-- Ends a claim: frees the thread and puts its due, parked queued dispatches back into ready.
local function release(h, now)
  local id, tk = h.dispatchId, tkey(h.threadId)
  redis.call('ZREM', LEASES, id)
  redis.call('HDEL', dkey(id), 'claimToken', 'leaseUntil')
  if redis.call('HGET', tk, 'claimed') ~= id then return end
  redis.call('HDEL', tk, 'claimed')
  for _, qid in ipairs(redis.call('ZRANGE', tk .. ':q', 0, -1)) do
    local q = redis.call('HMGET', dkey(qid), 'availableAt', 'priority', 'seq')
    if tonumber(q[1]) <= now then
      redis.call('ZREM', DELAYED, qid)
      redis.call('ZADD', READY, ready_score(q[2], q[3]), qid)
    end
  end
end

-- Places a queued dispatch (status already queued) in its thread queue and in ready or delayed.
local function place_queued(h, now, available_at)
  local id, tk = h.dispatchId, tkey(h.threadId)
  redis.call('ZADD', tk .. ':q', h.seq, id)
  if available_at > now then
    redis.call('ZADD', DELAYED, num(available_at), id)
  elseif not thread_claimed(h.threadId) then
    redis.call('ZADD', READY, ready_score(h.priority, h.seq), id)
  end
end

-- Moves a dispatch to a terminal status (the caller released any claim first).
local function finish(h, status, now)
  local id, tk = h.dispatchId, tkey(h.threadId)
  redis.call('HSET', dkey(id), 'status', status, 'updatedAt', num(now))
  redis.call('ZREM', tk .. ':q', id)
  redis.call('ZREM', READY, id)
  redis.call('ZREM', DELAYED, id)
  redis.call('ZADD', TERMINAL, num(now), id)
  if h.dedupeKey and redis.call('HGET', tk .. ':dd', h.dedupeKey) == id then
    redis.call('HDEL', tk .. ':dd', h.dedupeKey)
  end
end
`;
