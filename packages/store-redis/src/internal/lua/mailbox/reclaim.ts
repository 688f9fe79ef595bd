import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/**
 * ARGV: prefix, limit. Returns { id, fields, ... }. Reclaims claims whose lease expired strictly before Redis TIME, earliest
 * deadline first, equal deadlines in enqueue order (never by id: generated ids differ between
 * backends): counts the attempt, then supersedes (stale epoch), dead-letters (attempts used up) or
 * requeues now. Atomic, so concurrent sweepers each reclaim a dispatch at most once.
 */
export const RECLAIM = defineMutatingScript(
  'mailbox.reclaim',
  mailboxScript(`
local limit = tonumber(ARGV[2])
local now = now_ms()
local expired = redis.call('ZRANGEBYSCORE', LEASES, '-inf', '(' .. num(now), 'WITHSCORES', 'LIMIT', 0, limit)
local deadline_of = {}
for i = 1, #expired, 2 do deadline_of[expired[i]] = tonumber(expired[i + 1]) end
-- A tie at the limit: take the whole group of the last deadline, so enqueue order picks within it.
if #expired == 2 * limit then
  local last = expired[#expired]
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', LEASES, last, last)) do deadline_of[id] = tonumber(last) end
end
local candidates = {}
for id, deadline in pairs(deadline_of) do
  local h = read(id)
  if not h or h.s ~= 'claimed' then
    redis.call('ZREM', LEASES, id)
  elseif now > tonumber(h.l) then
    h._deadline, h._seq = deadline, tonumber(h.q) % PRIORITY_WEIGHT
    candidates[#candidates + 1] = h
  end
end
table.sort(candidates, function(a, b)
  if a._deadline ~= b._deadline then return a._deadline < b._deadline end
  return a._seq < b._seq
end)
local out = {}
for i = 1, math.min(limit, #candidates) do
  local h = with_inputs(candidates[i])
  local id = h.id
  local attempts = tonumber(h.n) + 1
  redis.call('HSET', dkey(id), 'n', num(attempts), 'x', 'lease of ' .. h.cb .. ' expired', 'u', num(now))
  release(h)
  if tonumber(h.e) < thread_epoch(h.t) then
    finish(h, 'superseded', now)
  elseif attempts >= tonumber(h.m) then
    finish(h, 'dead_letter', now)
  else
    redis.call('HSET', dkey(id), 's', 'queued', 'a', num(now), 'ct', '', 'l', '')
    restatus(id, seq_of(h), 'claimed', 'queued')
    place_queued(id, h.t, h.q, now, now)
  end
  out[#out + 1] = id
  out[#out + 1] = stored(id)
end
return out
`),
);
