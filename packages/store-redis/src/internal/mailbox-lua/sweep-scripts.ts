import { PRELUDE } from './prelude';

/**
 * ARGV: prefix, limit. Reclaims claims whose lease expired strictly before Redis TIME, earliest
 * deadline first (ties by dispatch id): counts the attempt, then supersedes (stale epoch),
 * dead-letters (attempts used up) or requeues now. Atomic, so concurrent sweepers each reclaim a
 * dispatch at most once.
 */
export const RECLAIM = `${PRELUDE}
local limit = tonumber(ARGV[2])
local now = now_ms()
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', LEASES, '-inf', '(' .. num(now), 'LIMIT', 0, limit)) do
  local h = get_dispatch(id)
  if not h or h.status ~= 'claimed' then
    redis.call('ZREM', LEASES, id)
  elseif now > tonumber(h.leaseUntil) then
    local attempts = tonumber(h.attemptCount) + 1
    hset(h, 'attemptCount', num(attempts), 'lastError', 'lease of ' .. h.claimedBy .. ' expired', 'updatedAt', num(now))
    release(h, now)
    if tonumber(h.dispatchEpoch) < thread_epoch(h.threadId) then
      finish(h, 'superseded', now)
    elseif attempts >= tonumber(h.maxAttempts) then
      finish(h, 'dead_letter', now)
    else
      hset(h, 'status', 'queued', 'availableAt', num(now))
      place_queued(h, now, now)
    end
    table.insert(out, pack(h))
  end
end
return out
`;

/** ARGV: prefix, olderThan, batch. Deletes up to `batch` terminal dispatches; returns how many. */
export const PURGE = `${PRELUDE}
local ids = redis.call('ZRANGEBYSCORE', TERMINAL, '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local thread = redis.call('HGET', dkey(id), 'threadId')
  if thread then redis.call('ZREM', takey(thread), id) end
  redis.call('DEL', dkey(id))
  redis.call('ZREM', TERMINAL, id)
end
return #ids
`;
