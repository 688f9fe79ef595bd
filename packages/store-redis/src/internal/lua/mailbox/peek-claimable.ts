import { defineLuaScript } from '../lua-script';
import { mailboxScript } from './mailbox-prelude';

/**
 * Read-only (the sharded mailbox, before it claims over several shards): ARGV: prefix, limit.
 * Returns the scores (ascending, at most `limit`) of what CLAIM would claim next on this shard,
 * without claiming: per thread without a claim, the lowest of its valid `ready` entries and, as
 * CLAIM first moves dispatches fallen due from `delayed` into their thread queue, of its queue's
 * head after that move. Stale `ready` entries (not queued, or their thread has a claim) are
 * skipped, as CLAIM drops them. At most 4 * limit + 16 `ready` entries and 1000 fallen-due ones are
 * read (CLAIM's own bound), so a shard with many stale entries may be under-counted.
 */
export const PEEK_CLAIMABLE = defineLuaScript(
  mailboxScript(`
local limit = tonumber(ARGV[2])
local now = now_ms()
local best = {}
local function offer(thread, score)
  if best[thread] == nil or score < best[thread] then best[thread] = score end
end
local ready = redis.call('ZRANGE', READY, 0, 4 * limit + 15, 'WITHSCORES')
for i = 1, #ready, 2 do
  local h = redis.call('HMGET', dkey(ready[i]), 't', 's')
  if h[1] and h[2] == 'queued' and not thread_claimed(h[1]) then offer(h[1], tonumber(ready[i + 1])) end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', DELAYED, '-inf', num(now), 'LIMIT', 0, 1000)) do
  local h = redis.call('HMGET', dkey(id), 't', 'q', 's')
  if h[1] and h[3] == 'queued' and not thread_claimed(h[1]) then
    offer(h[1], tonumber(h[2]))
    local head = redis.call('ZRANGE', tqkey(h[1]), 0, 0, 'WITHSCORES')
    if head[2] then offer(h[1], tonumber(head[2])) end
  end
end
local scores = {}
for _, score in pairs(best) do scores[#scores + 1] = score end
table.sort(scores)
local out = {}
for i = 1, math.min(limit, #scores) do out[i] = num(scores[i]) end
return out
`),
);
