import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * ARGV: prefix, runId, threadId, runJson, status, owner, leaseMs, createThread ('1' or '0').
 * `createThread` then `createRun` then `acquireRun` as one step (see their scripts): the checks
 * first, so a refused call writes nothing. Returns {threadCreated (1|0), leaseUntil}.
 */
export const CREATE_RUN_WITH_LEASE = defineMutatingScript(
  'threads.createRunWithLease',
  `${THREAD_PRELUDE}
local run, thread = ARGV[2], ARGV[3]
local has_thread = redis.call('EXISTS', thkey(thread)) == 1
if not has_thread and ARGV[8] ~= '1' then return fail('not_found', 'thread ' .. thread .. ' not found') end
if redis.call('EXISTS', runkey(run)) == 1 then return fail('conflict', 'run ' .. run .. ' already exists') end
local now = now_ms()
if not has_thread then
  redis.call('HSET', thkey(thread), 'id', thread, 'metadata', '{}', 'state', '{}', 'createdAt', num(now), 'updatedAt', num(now))
  redis.call('ZADD', P .. 'threads', next_seq(), thread)
end
local until_ms = now + tonumber(ARGV[7])
redis.call('HSET', runkey(run), 'json', ARGV[4], 'version', '0', 'threadId', thread, 'status', ARGV[5],
  'fence', '1', 'owner', ARGV[6], 'leaseUntil', num(until_ms))
local seq = next_seq()
redis.call('ZADD', thrkey(thread), seq, run)
redis.call('ZADD', statuskey(ARGV[5]), seq, run)
redis.call('HSET', thkey(thread), 'latestRunId', run)
touch(thread, now)
return { has_thread and 0 or 1, num(until_ms) }
`,
);
