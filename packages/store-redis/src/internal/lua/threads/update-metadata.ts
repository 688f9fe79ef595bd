import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/** ARGV: prefix, threadId, metadataJson. Returns the thread hash. */
export const UPDATE_METADATA = defineMutatingScript(
  'threads.updateMetadata',
  `${THREAD_PRELUDE}
local id = ARGV[2]
if redis.call('EXISTS', thkey(id)) == 0 then return fail('not_found', 'thread ' .. id .. ' not found') end
redis.call('HSET', thkey(id), 'metadata', ARGV[3])
touch(id, now_ms())
return redis.call('HGETALL', thkey(id))
`,
);
