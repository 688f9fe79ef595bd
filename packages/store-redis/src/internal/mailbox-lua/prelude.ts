import { DISPATCH_REPLY_FIELDS_LUA } from '../dispatch-fields';

/**
 * Lua shared by every mailbox script. ARGV[1] is the key prefix. Key layout (P = prefix):
 *   P d:<id>        hash   one dispatch: its fields and the hidden `score` (see dispatch-fields.ts)
 *   P t:<thread>    hash   `epoch` (dispatch epoch) and `claimed` (the thread's one claimed dispatch)
 *   P tq:<thread>   zset   the thread's queued dispatches (interrupt, re-readying)
 *   P ta:<thread>   zset   all the thread's dispatches by seq (listing)
 *   P tdd:<thread>  hash   dedupe key -> id of the non-terminal dispatch holding it
 * (one namespace per kind: with `t:<thread>:q` a thread named `x:q` would share thread x's queue)
 *   P ready         zset   due, queued dispatches by priority * 2^44 + seq (claim order)
 *   P delayed       zset   queued dispatches by availableAt, not yet due
 *   P leases        zset   claimed dispatches by leaseUntil (reclaim)
 *   P terminal      zset   terminal dispatches by updatedAt (purge)
 *   P seq           string enqueue counter
 *   P wake          list   wake-up markers for `waitForWork` (BLPOP): one pushed per dispatch made
 *                          claimable (enqueue, requeue, thread freed), at most WAKE_MARKERS kept;
 *                          claim deletes them when it leaves `ready` empty
 * Entries of a claimed thread found in `ready` are dropped ("parked") by claim and put back when the
 * claim ends, so one busy thread never makes claim scan its backlog twice.
 * Scripts reply with dispatches as positional arrays in DISPATCH_REPLY_FIELDS order (`pack`), built from the
 * table the script read and kept in step with every write it made (`hset`/`hdel`), so no reply needs
 * a second read. Only queued dispatches sit in `tq:<thread>`, `ready` or `delayed`.
 * Every script validates everything first and rejects with `AWAKEN <code> <message>` before writing.
 * All times come from Redis TIME, except in test-clock mode: then the caller passes KEYS[1] = `P clock`
 * and a millisecond value stored there (by the test harness, never a worker) freezes the store clock. Numbers are written with %.0f: Lua's default formatting keeps only
 * 14 significant digits.
 */
export const PRELUDE = `
local P = ARGV[1]
local READY, DELAYED, LEASES, TERMINAL = P .. 'ready', P .. 'delayed', P .. 'leases', P .. 'terminal'
local WAKE, WAKE_MARKERS = P .. 'wake', 64
local PRIORITY_WEIGHT = 17592186044416
local FIELDS = ${DISPATCH_REPLY_FIELDS_LUA}
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
-- The rejection of a lease whose deadline would not be a safe integer (checked before any write).
local function lease_out_of_range(now, lease_ms)
  if now + lease_ms > 9007199254740991 then
    return fail('validation_failed', 'leaseMs ' .. num(lease_ms) .. ' puts the lease deadline out of range')
  end
end
local function dkey(id) return P .. 'd:' .. id end
local function tkey(thread) return P .. 't:' .. thread end
-- One namespace per kind of thread key, so no thread id can name another thread's key.
local function tqkey(thread) return P .. 'tq:' .. thread end
local function takey(thread) return P .. 'ta:' .. thread end
local function tddkey(thread) return P .. 'tdd:' .. thread end
-- Reads a dispatch into a table by field name (absent fields stay nil); nil when it does not exist.
local function get_dispatch(id)
  local values = redis.call('HMGET', dkey(id), 'score', unpack(FIELDS))
  if not values[2] then return nil end -- no dispatchId: no dispatch
  local h = { score = values[1] }
  for i = 1, #FIELDS do
    if values[i + 1] then h[FIELDS[i]] = values[i + 1] end
  end
  return h
end
-- The reply for a dispatch: its fields in FIELDS order, false (nil) where absent.
local function pack(h)
  local out = {}
  for i = 1, #FIELDS do out[i] = h[FIELDS[i]] or false end
  return out
end
-- Writes field/value pairs to the dispatch hash and to h.
local function hset(h, ...)
  local args = { ... }
  for i = 1, #args, 2 do h[args[i]] = args[i + 1] end
  redis.call('HSET', dkey(h.dispatchId), ...)
end
local function hdel(h, ...)
  for _, field in ipairs({ ... }) do h[field] = nil end
  redis.call('HDEL', dkey(h.dispatchId), ...)
end
local function thread_epoch(thread) return tonumber(redis.call('HGET', tkey(thread), 'epoch') or '0') end
local function thread_claimed(thread) return redis.call('HEXISTS', tkey(thread), 'claimed') == 1 end
-- Wakes one waitForWork caller (any process), or the next one to call: a dispatch may be claimable.
local function signal_work()
  redis.call('LPUSH', WAKE, '1')
  redis.call('LTRIM', WAKE, 0, WAKE_MARKERS - 1)
end

-- The fencing check of claimant writes. Remembers the thread's claimed marker in h._claimed.
local function fenced(id, token, now)
  local h = get_dispatch(id)
  if not h then return nil, fail('not_found', 'dispatch ' .. id .. ' not found') end
  if h.status ~= 'claimed' or h.claimToken ~= token then
    return nil, fail('stale_claim', 'dispatch ' .. id .. ' is not claimed with this token')
  end
  if now > tonumber(h.leaseUntil) then return nil, fail('stale_claim', 'the lease of dispatch ' .. id .. ' expired') end
  local thread = redis.call('HMGET', tkey(h.threadId), 'epoch', 'claimed')
  if tonumber(h.dispatchEpoch) ~= tonumber(thread[1] or '0') then
    return nil, fail('stale_claim', 'dispatch ' .. id .. ' belongs to an interrupted epoch')
  end
  h._claimed = thread[2]
  return h
end

-- Claims a queued dispatch whose thread marker the caller already set to it, and takes it out of
-- its thread queue; the caller takes it out of ready / delayed.
local function claim_one(h, now, worker, lease_ms, token)
  local lease = num(now + lease_ms)
  hset(h, 'status', 'claimed', 'claimToken', token, 'claimedBy', worker, 'leaseUntil', lease, 'updatedAt', num(now))
  redis.call('ZADD', LEASES, lease, h.dispatchId)
  redis.call('ZREM', tqkey(h.threadId), h.dispatchId)
end

-- Ends a claim: frees the thread and puts its due, parked queued dispatches back into ready.
local function release(h, now)
  local id, tk = h.dispatchId, tkey(h.threadId)
  redis.call('ZREM', LEASES, id)
  hdel(h, 'claimToken', 'leaseUntil')
  if h._claimed == nil then h._claimed = redis.call('HGET', tk, 'claimed') end
  if h._claimed ~= id then return end
  redis.call('HDEL', tk, 'claimed')
  h._claimed = false
  local readied = false
  for _, qid in ipairs(redis.call('ZRANGE', tqkey(h.threadId), 0, -1)) do
    local q = redis.call('HMGET', dkey(qid), 'availableAt', 'score')
    if tonumber(q[1]) <= now then
      redis.call('ZREM', DELAYED, qid)
      redis.call('ZADD', READY, q[2], qid)
      readied = true
    end
  end
  if readied then signal_work() end
end

-- Places a queued dispatch (status already queued) in its thread queue and in ready or delayed.
local function place_queued(h, now, available_at)
  local id, tk = h.dispatchId, tkey(h.threadId)
  redis.call('ZADD', tqkey(h.threadId), h.score, id)
  if available_at > now then
    redis.call('ZADD', DELAYED, num(available_at), id)
    return
  end
  if h._claimed == nil then h._claimed = redis.call('HGET', tk, 'claimed') end
  if not h._claimed then
    redis.call('ZADD', READY, h.score, id)
    signal_work()
  end
end

-- Moves a dispatch to a terminal status (the caller released any claim first).
local function finish(h, status, now)
  local id, tk = h.dispatchId, tkey(h.threadId)
  if h.status == 'queued' then
    redis.call('ZREM', tqkey(h.threadId), id)
    redis.call('ZREM', READY, id)
    redis.call('ZREM', DELAYED, id)
  end
  hset(h, 'status', status, 'updatedAt', num(now))
  redis.call('ZADD', TERMINAL, num(now), id)
  if h.dedupeKey and redis.call('HGET', tddkey(h.threadId), h.dedupeKey) == id then
    redis.call('HDEL', tddkey(h.threadId), h.dedupeKey)
  end
end
`;
