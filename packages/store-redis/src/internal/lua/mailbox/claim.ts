import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/**
 * ARGV: prefix, workerId, limit, leaseMs, tokenBase. Returns { now, then id, fields per claimed
 * dispatch }, the fields as read before the claim: the client applies the claim (status, token =
 * tokenBase:<n-th claimed>, claimedBy, leaseUntil = now + leaseMs, updatedAt = now). Pops the head of
 * ready; an entry whose thread has a claim is dropped (see mailbox-prelude.ts), a stale one too.
 */
export const CLAIM = defineMutatingScript(
  'mailbox.claim',
  mailboxScript(`
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
`),
);
