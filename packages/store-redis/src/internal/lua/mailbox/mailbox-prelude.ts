import { PRELUDE } from '../prelude';

/**
 * Lua shared by every mailbox script, after the shared prelude (`../prelude.ts`: P = ARGV[1], the key
 * prefix; num, now_ms, rejection, fail). Key layout:
 *   P d:<id>        hash   one dispatch, short field names (mailbox/dispatch-fields.ts), `q` = its score,
 *                          `i` = what never changes and the hot paths never read, packed as
 *                          'priority,maxAttempts,epoch,createdAt,runId' (see with_inputs),
 *                          `z` = '1' when its thread was interrupted while it was claimed (see below);
 *                          `ct` and `l` are '' (absent) once a claim ends
 *   P tstate        hash   `e:<thread>` -> the thread's dispatch epoch (absent: 0), and
 *                          `c:<thread>` -> id of its one claimed dispatch
 *   P tq:<thread>   zset   the thread's due queued dispatches by score (its next one, interrupt)
 *   P tl:<thread>   zset   the thread's queued dispatches not due yet (interrupt)
 *   P ta:<thread>   zset   all the thread's dispatches by seq (listing)
 *   P tdd:<thread>  hash   dedupe key -> id of the non-terminal dispatch holding it
 * (one namespace per kind: with `t:<thread>:q` a thread named `x:q` would share thread x's queue)
 *   P ready         zset   claimable dispatches by score = priority * 2^44 + seq (claim order)
 *   P delayed       zset   queued dispatches by availableAt, not yet due
 *   P leases        zset   claimed dispatches by leaseUntil (reclaim)
 *   P terminal      zset   terminal dispatches by updatedAt (purge)
 *   P st:<status>   zset   the status index: ids of the dispatches with that status now, by enqueue
 *                          seq (countDispatches = ZCARD, listDispatchesByStatus, purge by status).
 *                          Cost: one ZREM + one ZADD (O(log n)) per status change and one entry per
 *                          stored dispatch; every status write goes through restatus. Dispatches
 *                          written by a version without it are indexed at their next status change.
 *   P seq           string enqueue counter
 *   P wake          list   wake-up markers for `waitForWork` (BLPOP): one per dispatch made claimable
 *                          (enqueue, requeue, thread freed), pushed together at the end of the
 *                          script, at most WAKE_MARKERS kept; claim deletes them when it leaves
 *                          `ready` empty
 *
 * `ready` holds, for every thread without a claim, at least its next dispatch (the head of its `tq`),
 * so popping `ready` in score order claims what priority-then-FIFO order says. Entries of a thread
 * that has a claim are dropped when claim pops them (they stay in `tq`); when a claim ends, only the
 * thread's next due dispatch goes back into `ready` (O(log n), whatever the thread's backlog), and
 * cancelling that one readies the one after. A dispatch queued on a thread without a claim enters
 * `ready` only when it becomes the thread's head (`queue_due`), so a backlog holds one entry there,
 * not one per dispatch. Claim moves dispatches that fell due from `delayed` and `tl` into `tq` (and
 * `ready`, the same way) before it pops.
 *
 * Every script validates everything first and rejects with `AWAKEN <code> <message>` before writing
 * (batched scripts: per item, as that item's reply; an item that fails unexpectedly is answered
 * `AWAKEN store_failure <error>`, see per_item). Scripts reply with a dispatch as the raw HGETALL
 * of its hash; the hot paths (claim, ack) reply with the hash as read before their writes, and the
 * client applies those writes, which it knows (`decodeDispatch` changes). All times come from
 * now_ms (Redis TIME, or the test clock); numbers are written with num.
 */
const MAILBOX_PRELUDE = `${PRELUDE}
local READY, DELAYED, LEASES, TERMINAL = P .. 'ready', P .. 'delayed', P .. 'leases', P .. 'terminal'
local THREADS, WAKE, WAKE_MARKERS = P .. 'tstate', P .. 'wake', 64
local PRIORITY_WEIGHT = 17592186044416
-- Runs one item of a batched script (enqueue, ack: one item per call of a tick) under pcall, so that
-- each call is answered by what happened to its own item: a Lua runtime error or a failed redis.call
-- (a malformed record, a write refused at maxmemory) becomes that item's store_failure instead of
-- aborting the script, which would fail every call of the batch while Redis keeps the writes of the
-- items before it (a script is never rolled back). The failing item keeps what it wrote before its
-- error; every check comes before an item's first write, so only an unexpected failure can do that.
local function per_item(item, ...)
  local ok, reply = pcall(item, ...)
  if ok then return reply end
  if type(reply) == 'table' then reply = reply.err end
  return rejection('store_failure', tostring(reply))
end
-- The rejection of a lease whose deadline would not be a safe integer (checked before any write).
local function lease_out_of_range(now, lease_ms)
  if now + lease_ms > 9007199254740991 then
    return fail('validation_failed', 'leaseMs ' .. num(lease_ms) .. ' puts the lease deadline out of range')
  end
end
local function dkey(id) return P .. 'd:' .. id end
local function stkey(status) return P .. 'st:' .. status end
-- The enqueue seq of a read dispatch (its score q is priority * PRIORITY_WEIGHT + seq).
local function seq_of(h) return tonumber(h.q) % PRIORITY_WEIGHT end
-- Moves a dispatch in the status index from 'from' (nil: a new dispatch) to 'to'.
local function restatus(id, seq, from, to)
  if from then redis.call('ZREM', stkey(from), id) end
  redis.call('ZADD', stkey(to), num(seq), id)
end
-- One namespace per kind of thread key, so no thread id can name another thread's key.
local function tqkey(thread) return P .. 'tq:' .. thread end
local function tlkey(thread) return P .. 'tl:' .. thread end
local function takey(thread) return P .. 'ta:' .. thread end
local function tddkey(thread) return P .. 'tdd:' .. thread end
-- Reads a dispatch: a table by stored field name, with its id in h.id and the HGETALL reply in
-- h.raw; nil when it does not exist.
local function read(id)
  local raw = redis.call('HGETALL', dkey(id))
  if #raw == 0 then return nil end
  local h = { id = id, raw = raw }
  for i = 1, #raw, 2 do h[raw[i]] = raw[i + 1] end
  return h
end
-- Reads a dispatch an operation allows only in one status (named in the message as 'named', default
-- the status itself): the dispatch, or nil and the rejection text (not_found, or conflict naming its status).
local function read_in_status(id, status, named)
  local h = read(id)
  if not h then return nil, rejection('not_found', 'dispatch ' .. id .. ' not found') end
  if h.s ~= status then
    return nil, rejection('conflict', 'dispatch ' .. id .. ' is ' .. h.s .. ', not ' .. (named or status))
  end
  return h
end
-- Unpacks h.i (see the key layout) into h.p, h.m, h.e, h.c, h.r (numbers as text); returns h.
local function with_inputs(h)
  h.p, h.m, h.e, h.c, h.r = string.match(h.i, '^(%d+),(%d+),(%d+),(%d+),(.*)$')
  return h
end
-- The reply for a dispatch as stored now.
local function stored(id) return redis.call('HGETALL', dkey(id)) end
local function thread_epoch(thread) return tonumber(redis.call('HGET', THREADS, 'e:' .. thread) or '0') end
local function thread_claimed(thread) return redis.call('HEXISTS', THREADS, 'c:' .. thread) == 1 end
-- Marks the thread claimed by dispatch id unless it has a claim; true when it did.
local function claim_thread(thread, id) return redis.call('HSETNX', THREADS, 'c:' .. thread, id) == 1 end
-- Wakes one waitForWork caller (any process), or the next one to call: a dispatch may be claimable.
-- Counted here, pushed once when the script ends (flush_wakes: one LPUSH per call, not per dispatch).
local wakes = 0
local function signal_work() wakes = wakes + 1 end
local function flush_wakes()
  if wakes == 0 then return end
  local count = math.min(wakes, WAKE_MARKERS - redis.call('LLEN', WAKE))
  if count <= 0 then return end
  local markers = {}
  for i = 1, count do markers[i] = '1' end
  redis.call('LPUSH', WAKE, unpack(markers))
end
-- Puts the thread's next due dispatch (if any) into ready; the caller checked it has no claim.
local function ready_next(thread)
  local queue = tqkey(thread)
  -- EXISTS first: an array reply costs Lua far more than an integer one, and the queue is mostly empty.
  if redis.call('EXISTS', queue) == 0 then return end
  local head = redis.call('ZRANGE', queue, 0, 0, 'WITHSCORES')
  if head[1] then
    redis.call('ZADD', READY, head[2], head[1])
    signal_work()
  end
end

-- The fencing check of claimant writes: the dispatch, or nil and the rejection text. A claim whose
-- thread was interrupted carries z (set by interrupt, which bumps the epoch; no dispatch of an older
-- epoch is ever claimed again, as interrupt supersedes every queued one), so this reads only the
-- dispatch: h.z is exactly "h.e < the thread's epoch" for a claimed dispatch.
local function fenced(id, token, now)
  local h = read(id)
  if not h then return nil, rejection('not_found', 'dispatch ' .. id .. ' not found') end
  if h.s ~= 'claimed' or h.ct ~= token then
    return nil, rejection('stale_claim', 'dispatch ' .. id .. ' is not claimed with this token')
  end
  if now > tonumber(h.l) then return nil, rejection('stale_claim', 'the lease of dispatch ' .. id .. ' expired') end
  if h.z then
    return nil, rejection('stale_claim', 'dispatch ' .. id .. ' belongs to an interrupted epoch')
  end
  return h
end

-- Claims a queued dispatch whose thread the caller already marked claimed by it, and takes it out of
-- its thread queue; the caller takes it out of ready / delayed.
local function claim_one(h, now, worker, lease, token)
  redis.call('HSET', dkey(h.id), 's', 'claimed', 'ct', token, 'cb', worker, 'l', lease, 'u', num(now))
  restatus(h.id, seq_of(h), 'queued', 'claimed')
  redis.call('ZADD', LEASES, lease, h.id)
  redis.call('ZREM', tqkey(h.t), h.id)
end

-- Ends a claim: frees the thread and readies its next due dispatch (one, whatever the backlog). The
-- caller then writes the dispatch's new status, with token and lease cleared ('ct', '', 'l', ''). A
-- claimed dispatch always holds its thread's claim marker (both are set and cleared by the same scripts).
local function release(h)
  redis.call('ZREM', LEASES, h.id)
  if redis.call('HDEL', THREADS, 'c:' .. h.t) == 1 then ready_next(h.t) end
end

-- Adds a due queued dispatch to its thread queue, and to ready when it is the head of a thread
-- with no claim (a later one would only be popped and dropped by claim: one entry per thread, not
-- per dispatch, or a claim stalls on the whole backlog); true when the thread has no claim.
local function queue_due(id, thread, score)
  redis.call('ZADD', tqkey(thread), score, id)
  if thread_claimed(thread) then return false end
  if redis.call('ZRANGE', tqkey(thread), 0, 0)[1] == id then redis.call('ZADD', READY, score, id) end
  return true
end

-- Places a queued dispatch (status already queued) in its thread queue and in ready or delayed.
local function place_queued(id, thread, score, now, available_at)
  if available_at > now then
    redis.call('ZADD', tlkey(thread), score, id)
    redis.call('ZADD', DELAYED, num(available_at), id)
    return
  end
  if queue_due(id, thread, score) then signal_work() end
end

-- Moves a dispatch to a terminal status (the caller released any claim first: a claimed one's token
-- and lease are cleared). A queued one leaves the queues; when it was its thread's next dispatch, the
-- one after takes its place in ready.
local function finish(h, status, now)
  local id, thread = h.id, h.t
  if h.s == 'queued' then
    redis.call('ZREM', tqkey(thread), id)
    redis.call('ZREM', tlkey(thread), id)
    redis.call('ZREM', DELAYED, id)
    if redis.call('ZREM', READY, id) == 1 and not thread_claimed(thread) then ready_next(thread) end
  end
  local stamp = num(now)
  if h.s == 'claimed' then redis.call('HSET', dkey(id), 's', status, 'u', stamp, 'ct', '', 'l', '')
  else redis.call('HSET', dkey(id), 's', status, 'u', stamp) end
  restatus(id, seq_of(h), h.s, status)
  redis.call('ZADD', TERMINAL, stamp, id)
  if h.k and redis.call('HGET', tddkey(thread), h.k) == id then redis.call('HDEL', tddkey(thread), h.k) end
end
`;

/**
 * A mailbox script: the mailbox prelude, then `body` run as a function (its `return` is the reply), then the
 * wake-up markers it counted are pushed.
 */
export function mailboxScript(body: string): string {
  return `${MAILBOX_PRELUDE}
local function __mailbox()
${body}
end
local __reply = __mailbox()
flush_wakes()
return __reply
`;
}
