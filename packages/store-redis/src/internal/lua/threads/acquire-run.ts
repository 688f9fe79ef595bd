import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * ARGV: prefix, runId, owner, leaseMs. Run hash fields: fence (0 when never acquired), owner and
 * leaseUntil while held. Returns {'ok', fence, leaseUntil} or, while another lease is live,
 * {'busy', owner, leaseUntil, now}.
 */
export const ACQUIRE_RUN = defineMutatingScript(
  'threads.acquireRun',
  `${THREAD_PRELUDE}
local key = runkey(ARGV[2])
if redis.call('EXISTS', key) == 0 then return fail('not_found', 'run ' .. ARGV[2] .. ' not found') end
local held = redis.call('HMGET', key, 'owner', 'leaseUntil', 'fence')
local now = now_ms()
if held[1] and held[2] and now <= tonumber(held[2]) then return { 'busy', held[1], held[2], num(now) } end
local fence = tonumber(held[3] or '0') + 1
local until_ms = now + tonumber(ARGV[4])
redis.call('HSET', key, 'fence', num(fence), 'owner', ARGV[3], 'leaseUntil', num(until_ms))
return { 'ok', num(fence), num(until_ms) }
`,
);
