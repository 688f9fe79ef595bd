import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/** ARGV: prefix, threadId, metadataJson. Returns the thread hash. */
const CREATE_THREAD = `${THREAD_PRELUDE}
local id = ARGV[2]
if redis.call('EXISTS', thkey(id)) == 1 then return fail('conflict', 'thread ' .. id .. ' already exists') end
local now = now_ms()
redis.call('HSET', thkey(id), 'id', id, 'metadata', ARGV[3], 'state', '{}', 'createdAt', num(now), 'updatedAt', num(now))
redis.call('ZADD', P .. 'threads', redis.call('INCR', P .. 'tseq'), id)
return redis.call('HGETALL', thkey(id))
`;

/** ARGV: prefix, threadId, metadataJson. Returns the thread hash. */
const UPDATE_METADATA = `${THREAD_PRELUDE}
local id = ARGV[2]
if redis.call('EXISTS', thkey(id)) == 0 then return fail('not_found', 'thread ' .. id .. ' not found') end
redis.call('HSET', thkey(id), 'metadata', ARGV[3], 'updatedAt', num(now_ms()))
return redis.call('HGETALL', thkey(id))
`;

/** ARGV: prefix, threadId. Returns 1 when deleted, 0 when unknown. */
const DELETE_THREAD = `${THREAD_PRELUDE}
local id = ARGV[2]
if redis.call('EXISTS', thkey(id)) == 0 then return 0 end
for _, run in ipairs(redis.call('ZRANGE', thrkey(id), 0, -1)) do
  local status = redis.call('HGET', runkey(run), 'status')
  if status then redis.call('ZREM', statuskey(status), run) end
  redis.call('DEL', runkey(run))
end
redis.call('DEL', thkey(id), thmkey(id), thrkey(id))
redis.call('ZREM', P .. 'threads', id)
return 1
`;

/**
 * ARGV: prefix, threadId, threadIdJson, expectedLength, body... Returns { length before, now }: the
 * caller builds the records (seq = length before + 1, ...; createdAt = now).
 */
const APPEND_MESSAGES = `${THREAD_PRELUDE}
local id, expected = ARGV[2], tonumber(ARGV[4])
if redis.call('EXISTS', thkey(id)) == 0 then return fail('not_found', 'thread ' .. id .. ' not found') end
local length = redis.call('LLEN', thmkey(id))
if length ~= expected then
  return fail('stale_append', 'thread ' .. id .. ' has ' .. length .. ' messages, expected ' .. expected)
end
local now = now_ms()
append_messages(id, ARGV[3], 5, now)
redis.call('HSET', thkey(id), 'updatedAt', num(now))
return { length, num(now) }
`;

/** ARGV: prefix, runId, threadId, runJson, status. */
const CREATE_RUN = `${THREAD_PRELUDE}
local run, thread = ARGV[2], ARGV[3]
if redis.call('EXISTS', thkey(thread)) == 0 then return fail('not_found', 'thread ' .. thread .. ' not found') end
if redis.call('EXISTS', runkey(run)) == 1 then return fail('conflict', 'run ' .. run .. ' already exists') end
redis.call('HSET', runkey(run), 'json', ARGV[4], 'version', '0', 'threadId', thread, 'status', ARGV[5])
local seq = redis.call('INCR', P .. 'tseq')
redis.call('ZADD', thrkey(thread), seq, run)
redis.call('ZADD', statuskey(ARGV[5]), seq, run)
redis.call('HSET', thkey(thread), 'latestRunId', run, 'updatedAt', num(now_ms()))
return 1
`;

/**
 * ARGV: prefix, threadId, threadIdJson, expectedMessageCount, runId, runJson, version, status,
 * allowedFrom (the stored statuses that may move to status, space-separated), threadStateJson | ''
 * (keep), fence, body... Everything is checked before anything is written, in the contract's order:
 * thread, run, fence, the run's own thread, version, message count, status move.
 */
export const COMMIT_CHECKPOINT = `${THREAD_PRELUDE}
local thread, expected, run, version, status = ARGV[2], tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[7]), ARGV[8]
local tk = thkey(thread)
if redis.call('EXISTS', tk) == 0 then return fail('not_found', 'thread ' .. thread .. ' not found') end
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
local length = redis.call('LLEN', thmkey(thread))
if length ~= expected then
  return fail('stale_append', 'thread ' .. thread .. ' has ' .. length .. ' messages, expected ' .. expected)
end
if not string.find(' ' .. ARGV[9] .. ' ', ' ' .. stored[3] .. ' ', 1, true) then
  return fail('invalid_transition', 'run ' .. run .. ' cannot move from ' .. stored[3] .. ' to ' .. status)
end
local now = now_ms()
append_messages(thread, ARGV[3], 12, now)
redis.call('HSET', runkey(run), 'json', ARGV[6], 'version', num(version), 'status', status)
if stored[3] ~= status then
  redis.call('ZREM', statuskey(stored[3]), run)
  redis.call('ZADD', statuskey(status), redis.call('ZSCORE', thrkey(thread), run), run)
end
local pointers = redis.call('HMGET', tk, 'activeRunId', 'openRunId')
if status == 'running' then
  redis.call('HSET', tk, 'activeRunId', run)
  if pointers[2] == run then redis.call('HDEL', tk, 'openRunId') end
elseif status == 'waiting' then
  redis.call('HSET', tk, 'openRunId', run)
  if pointers[1] == run then redis.call('HDEL', tk, 'activeRunId') end
elseif status == 'done' then
  if pointers[1] == run then redis.call('HDEL', tk, 'activeRunId') end
  if pointers[2] == run then redis.call('HDEL', tk, 'openRunId') end
end
if ARGV[10] ~= '' then redis.call('HSET', tk, 'state', ARGV[10]) end
redis.call('HSET', tk, 'updatedAt', num(now))
return 1
`;

/**
 * ARGV: prefix, runId, owner, leaseMs. Run hash fields: fence (0 when never acquired), owner and
 * leaseUntil while held. Returns {'ok', fence, leaseUntil} or, while another lease is live,
 * {'busy', owner, leaseUntil, now}.
 */
const ACQUIRE_RUN = `${THREAD_PRELUDE}
local key = runkey(ARGV[2])
if redis.call('EXISTS', key) == 0 then return fail('not_found', 'run ' .. ARGV[2] .. ' not found') end
local held = redis.call('HMGET', key, 'owner', 'leaseUntil', 'fence')
local now = now_ms()
if held[1] and held[2] and now <= tonumber(held[2]) then return { 'busy', held[1], held[2], num(now) } end
local fence = tonumber(held[3] or '0') + 1
local until_ms = now + tonumber(ARGV[4])
redis.call('HSET', key, 'fence', num(fence), 'owner', ARGV[3], 'leaseUntil', num(until_ms))
return { 'ok', num(fence), num(until_ms) }
`;

/** ARGV: prefix, runId, owner, fence, leaseMs. Returns the new leaseUntil. */
const RENEW_RUN = `${THREAD_PRELUDE}
local key = runkey(ARGV[2])
if redis.call('EXISTS', key) == 0 then return fail('not_found', 'run ' .. ARGV[2] .. ' not found') end
local held = redis.call('HMGET', key, 'owner', 'fence')
if held[1] ~= ARGV[3] or tonumber(held[2] or '0') ~= tonumber(ARGV[4]) then
  return fail('stale_claim', 'run ' .. ARGV[2] .. ': fence ' .. ARGV[4] .. ' of ' .. ARGV[3] .. ' no longer holds it')
end
local until_ms = now_ms() + tonumber(ARGV[5])
redis.call('HSET', key, 'leaseUntil', num(until_ms))
return num(until_ms)
`;

/** ARGV: prefix, runId, owner, fence. Returns 1 when released, 0 when the proof no longer held it. */
const RELEASE_RUN = `${THREAD_PRELUDE}
local key = runkey(ARGV[2])
local held = redis.call('HMGET', key, 'owner', 'fence')
if held[1] ~= ARGV[3] or tonumber(held[2] or '0') ~= tonumber(ARGV[4]) then return 0 end
redis.call('HDEL', key, 'owner', 'leaseUntil')
return 1
`;

/** Every thread/run write as one atomic Lua script, idempotent per request. */
export const THREAD_SCRIPTS = {
  acquireRun: defineMutatingScript('threads.acquireRun', ACQUIRE_RUN),
  renewRun: defineMutatingScript('threads.renewRun', RENEW_RUN),
  releaseRun: defineMutatingScript('threads.releaseRun', RELEASE_RUN),
  createThread: defineMutatingScript('threads.createThread', CREATE_THREAD),
  updateMetadata: defineMutatingScript('threads.updateMetadata', UPDATE_METADATA),
  deleteThread: defineMutatingScript('threads.deleteThread', DELETE_THREAD),
  appendMessages: defineMutatingScript('threads.appendMessages', APPEND_MESSAGES),
  createRun: defineMutatingScript('threads.createRun', CREATE_RUN),
  commitCheckpoint: defineMutatingScript('threads.commitCheckpoint', COMMIT_CHECKPOINT),
} as const;
