import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * A run's lease, its event log's fence and its record in one atomic call (the contract's
 * `AcquireWithFence`). ARGV: prefix, runId, owner, leaseMs, the log's stream key, the log's meta key
 * (see `../events/event-log-prelude.ts`). The refusals come first and write nothing: an unknown run,
 * a live lease of another holder ({'busy', owner, leaseUntil, now}, as `acquireRun`), a log that has
 * seen a higher fence than this lease's (stale_claim). Then the lease as `acquireRun` grants it, the
 * log's fence raised to it as `raiseFence` raises it. Returns {'ok', fence, leaseUntil, last seq,
 * the run's JSON}.
 */
export const ACQUIRE_WITH_FENCE = defineMutatingScript(
  'threads.acquireWithFence',
  `${THREAD_PRELUDE}
local run = ARGV[2]
local key = runkey(run)
local meta = ARGV[6]
if redis.call('EXISTS', key) == 0 then return fail('not_found', 'run ' .. run .. ' not found') end
local held = redis.call('HMGET', key, 'owner', 'leaseUntil', 'fence', 'json')
local now = now_ms()
if held[1] and held[2] and now <= tonumber(held[2]) then return { 'busy', held[1], held[2], num(now) } end
local fence = tonumber(held[3] or '0') + 1
local current = tonumber(redis.call('HGET', meta, 'fence') or '0')
if fence < current then
  return fail('stale_claim', 'the event log of run ' .. run .. ' is at fence ' ..
    num(current) .. ', the writer has ' .. num(fence))
end
local until_ms = now + tonumber(ARGV[4])
redis.call('HSET', key, 'fence', num(fence), 'owner', ARGV[3], 'leaseUntil', num(until_ms))
redis.call('HSET', meta, 'fence', num(fence))
local last = redis.call('HGET', meta, 'last') or '0'
return { 'ok', num(fence), num(until_ms), last, held[4] }
`,
);
