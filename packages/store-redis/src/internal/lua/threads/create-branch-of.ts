import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * ARGV: prefix, branchId, sourceId, atSeq, metadataJson, titleJson ('' none). The branch half of
 * `createBranch` on a Redis Cluster when the branch's shard is not its source's: the caller has read
 * the source (it exists and has `atSeq` messages; a source's log only grows) and adds the branch to
 * the source's branch list on the source's shard after this call. Returns the branch hash.
 */
export const CREATE_BRANCH_OF = defineMutatingScript(
  'threads.createBranchOf',
  `${THREAD_PRELUDE}
local id, source = ARGV[2], ARGV[3]
if redis.call('EXISTS', thkey(id)) == 1 then return fail('conflict', 'thread ' .. id .. ' already exists') end
local now = now_ms()
redis.call('HSET', thkey(id), 'id', id, 'metadata', ARGV[5], 'state', '{}', 'createdAt', num(now),
  'updatedAt', num(now), 'branchSource', source, 'branchSeq', ARGV[4])
if ARGV[6] ~= '' then redis.call('HSET', thkey(id), 'title', ARGV[6]) end
local seq = next_seq()
redis.call('ZADD', P .. 'threads', seq, id)
touch(id, now)
local reply = redis.call('HGETALL', thkey(id))
reply[#reply + 1] = '__seq'
reply[#reply + 1] = num(seq)
return reply
`,
);
