import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/** ARGV: prefix, threadId, metadataJson. Returns the thread hash. */
export const CREATE_THREAD = defineMutatingScript(
  'threads.createThread',
  `${THREAD_PRELUDE}
local id = ARGV[2]
if redis.call('EXISTS', thkey(id)) == 1 then return fail('conflict', 'thread ' .. id .. ' already exists') end
local now = now_ms()
redis.call('HSET', thkey(id), 'id', id, 'metadata', ARGV[3], 'state', '{}', 'createdAt', num(now), 'updatedAt', num(now))
redis.call('ZADD', P .. 'threads', next_seq(), id)
touch(id, now)
return redis.call('HGETALL', thkey(id))
`,
);
