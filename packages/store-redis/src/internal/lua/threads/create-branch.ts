import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * ARGV: prefix, sourceId, branchId, atSeq, metadataJson. Creates the branch as a thread hash that
 * points at its source (branchSource, branchSeq) and adds it to the source's branch list; reads the
 * source's hash only (never its log), so its cost does not depend on the prefix. Returns the branch
 * hash.
 */
export const CREATE_BRANCH = defineMutatingScript(
  'threads.createBranch',
  `${THREAD_PRELUDE}
local source, id, at = ARGV[2], ARGV[3], tonumber(ARGV[4])
if redis.call('EXISTS', thkey(source)) == 0 then return fail('not_found', 'thread ' .. source .. ' not found') end
local count = log_length(source)
if at > count then
  return fail('not_found', 'thread ' .. source .. ' has no message ' .. ARGV[4] .. ' (it has ' .. count .. ')')
end
if redis.call('EXISTS', thkey(id)) == 1 then return fail('conflict', 'thread ' .. id .. ' already exists') end
local now = now_ms()
redis.call('HSET', thkey(id), 'id', id, 'metadata', ARGV[5], 'state', '{}', 'createdAt', num(now),
  'updatedAt', num(now), 'branchSource', source, 'branchSeq', num(at))
local title = redis.call('HGET', thkey(source), 'title')
if title then redis.call('HSET', thkey(id), 'title', title) end
local seq = next_seq()
redis.call('ZADD', P .. 'threads', seq, id)
redis.call('ZADD', thbkey(source), seq, id)
touch(id, now)
return redis.call('HGETALL', thkey(id))
`,
);
