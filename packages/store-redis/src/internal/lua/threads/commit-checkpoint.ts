import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * ARGV: prefix, threadId, threadIdJson, expectedMessageCount, runId, runJson, version, status,
 * allowedFrom (the stored statuses that may move to status, space-separated), threadStateJson | ''
 * (keep), fence, titleJson | '' (the title the batch gives the thread, set only if it has none), body... Everything is checked before anything is written, in the contract's order:
 * thread, run, fence, the run's own thread, version, message count, status move.
 */
export const COMMIT_CHECKPOINT_BODY = `${THREAD_PRELUDE}
local thread, expected, run, version, status = ARGV[2], tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[7]), ARGV[8]
local tk = thkey(thread)
-- One read of the thread: whether it exists (every thread hash holds its id), its branch prefix and
-- its run pointers (nothing below changes them before they are used).
local th = redis.call('HMGET', tk, 'id', 'branchSeq', 'activeRunId', 'openRunId')
if not th[1] then return fail('not_found', 'thread ' .. thread .. ' not found') end
local stored = redis.call('HMGET', runkey(run), 'version', 'threadId', 'status', 'fence')
if not stored[1] then return fail('not_found', 'run ' .. run .. ' not found') end
local fence = tonumber(stored[4] or '0')
if tonumber(ARGV[11]) ~= fence then
  return fail('stale_claim', 'run ' .. run .. ': the checkpoint carries fence ' .. ARGV[11] .. ', the run is at fence ' .. num(fence))
end
if stored[2] ~= thread then return fail('conflict', 'run ' .. run .. ' belongs to thread ' .. stored[2]) end
if tonumber(stored[1]) + 1 ~= version then
  return fail('stale_version', 'run ' .. run .. ' is at version ' .. stored[1] .. ', checkpoint has ' .. version)
end
local length = redis.call('LLEN', thmkey(thread)) + tonumber(th[2] or '0')
if length ~= expected then
  return fail('stale_append', 'thread ' .. thread .. ' has ' .. length .. ' messages, expected ' .. expected)
end
if not string.find(' ' .. ARGV[9] .. ' ', ' ' .. stored[3] .. ' ', 1, true) then
  return fail('invalid_transition', 'run ' .. run .. ' cannot move from ' .. stored[3] .. ' to ' .. status)
end
local now = now_ms()
append_messages(thread, ARGV[3], 13, now, length)
entitle(thread, ARGV[12])
redis.call('HSET', runkey(run), 'json', ARGV[6], 'version', num(version), 'status', status)
if stored[3] ~= status then
  redis.call('ZREM', statuskey(stored[3]), run)
  redis.call('ZADD', statuskey(status), redis.call('ZSCORE', thrkey(thread), run), run)
end
-- The thread's fields in one HSET (and one HDEL): run pointers, state, updatedAt (see touch).
local sets, dels = {}, {}
local function set(field, value) sets[#sets + 1] = field; sets[#sets + 1] = value end
local active, open = th[3], th[4]
if status == 'running' then
  set('activeRunId', run)
  if open == run then dels[#dels + 1] = 'openRunId' end
elseif status == 'waiting' then
  set('openRunId', run)
  if active == run then dels[#dels + 1] = 'activeRunId' end
elseif status == 'done' then
  if active == run then dels[#dels + 1] = 'activeRunId' end
  if open == run then dels[#dels + 1] = 'openRunId' end
end
if ARGV[10] ~= '' then set('state', ARGV[10]) end
set('updatedAt', num(now))
redis.call('HSET', tk, unpack(sets))
if #dels > 0 then redis.call('HDEL', tk, unpack(dels)) end
redis.call('ZADD', P .. 'threads:written', next_seq(), thread)
return 1
`;

export const COMMIT_CHECKPOINT = defineMutatingScript('threads.commitCheckpoint', COMMIT_CHECKPOINT_BODY);
