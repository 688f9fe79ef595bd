import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/** ARGV: prefix, runId, owner, fence, leaseMs. Returns the new leaseUntil. */
export const RENEW_RUN = defineMutatingScript(
  'threads.renewRun',
  `${THREAD_PRELUDE}
local key = runkey(ARGV[2])
if redis.call('EXISTS', key) == 0 then return fail('not_found', 'run ' .. ARGV[2] .. ' not found') end
local held = redis.call('HMGET', key, 'owner', 'fence')
if held[1] ~= ARGV[3] or tonumber(held[2] or '0') ~= tonumber(ARGV[4]) then
  return fail('stale_claim', 'run ' .. ARGV[2] .. ': fence ' .. ARGV[4] .. ' of ' .. ARGV[3] .. ' no longer holds it')
end
local until_ms = now_ms() + tonumber(ARGV[5])
redis.call('HSET', key, 'leaseUntil', num(until_ms))
return num(until_ms)
`,
);
