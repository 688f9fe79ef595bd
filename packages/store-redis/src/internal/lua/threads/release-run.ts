import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/** ARGV: prefix, runId, owner, fence. Returns 1 when released, 0 when the proof no longer held it. */
export const RELEASE_RUN = defineMutatingScript(
  'threads.releaseRun',
  `${THREAD_PRELUDE}
local key = runkey(ARGV[2])
local held = redis.call('HMGET', key, 'owner', 'fence')
if held[1] ~= ARGV[3] or tonumber(held[2] or '0') ~= tonumber(ARGV[4]) then return 0 end
redis.call('HDEL', key, 'owner', 'leaseUntil')
return 1
`,
);
