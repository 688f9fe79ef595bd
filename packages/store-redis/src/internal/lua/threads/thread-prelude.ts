import { PRELUDE } from '../prelude';

/**
 * Lua shared by the thread/run scripts, after the shared prelude (`../prelude.ts`: P = ARGV[1], the
 * key prefix; num, now_ms, rejection, fail). Key layout:
 *   P th:<id>     hash   thread: id, metadata (JSON), state (JSON), activeRunId, openRunId,
 *                        latestRunId, title (JSON text: the first external user message,
 *                        shortened by the caller; set once), createdAt, updatedAt and, on a
 *                        branch, branchSource (its source's id) and branchSeq (its prefix length)
 *   P thm:<id>    list   the thread's own message log, one MessageRecord JSON per entry
 *                        (seq = branchSeq + index + 1; branchSeq absent = 0)
 *   P thb:<id>    zset   the ids of the thread's branches, by creation seq
 *   P thr:<id>    zset   the thread's run ids by creation seq
 *   P run:<id>    hash   run: json (the RunRecord), version, threadId, status, fence (the run's
 *                        current fence, absent = 0) and, while a lease is held, owner, leaseUntil
 *   P threads     zset   thread ids by creation seq
 *   P threads:written zset thread ids by the seq of their last write (the \`newest\` order), moved
 *                        by every write that moves updatedAt
 *   P rs:<status> zset   the status index: ids of the runs with that status now, by creation seq
 *                        (the score of thr:<thread>), moved by every status change
 *   P tseq        string creation counter (single node; see next_seq)
 * JSON documents are built by the caller and stored verbatim (Lua's cjson would turn [] into {} and
 * round numbers to 14 digits); the scripts only compare versions, counts and ids.
 */
export const THREAD_PRELUDE = `${PRELUDE}
local APPEND_CHUNK = 1000
-- ARGV[2]: where the store's seqs start ('' = this slot's counter P tseq; on a Redis Cluster the
-- sharded store reserves seqs of the tenant's one counter, so every shard's indexes share one score
-- space). Taken out of ARGV here, so the scripts' own arguments keep their places.
local __seq_from = table.remove(ARGV, 2)
local function next_seq()
  if __seq_from == '' then return redis.call('INCR', P .. 'tseq') end
  local seq = tonumber(__seq_from)
  __seq_from = num(seq + 1)
  return seq
end
local function thkey(id) return P .. 'th:' .. id end
-- One namespace per kind of thread key, so no thread id can name another thread's key.
local function thmkey(id) return P .. 'thm:' .. id end
local function thrkey(id) return P .. 'thr:' .. id end
local function thbkey(id) return P .. 'thb:' .. id end
local function runkey(id) return P .. 'run:' .. id end
local function statuskey(status) return P .. 'rs:' .. status end

-- The thread's message count: a branch's prefix (branchSeq) and its own log.
local function log_length(id)
  return redis.call('LLEN', thmkey(id)) + tonumber(redis.call('HGET', thkey(id), 'branchSeq') or '0')
end

-- Marks the thread written at now: updatedAt, and its place in the newest-first order.
local function touch(id, now)
  redis.call('HSET', thkey(id), 'updatedAt', num(now))
  redis.call('ZADD', P .. 'threads:written', next_seq(), id)
end

-- Sets the thread's title once (title: JSON text, '' when the batch gives none).
local function entitle(id, title)
  if title ~= '' then redis.call('HSETNX', thkey(id), 'title', title) end
end

-- Appends the message bodies ARGV[first..] (JSON objects without threadId/seq/createdAt) as records,
-- RPUSHing in chunks (no unpack of a whole batch: Lua limits how many values one call takes).
-- Returns the log length before the append (\`length\`: that length when the caller just read it).
local function append_messages(thread, thread_json, first, now, length)
  local log = thmkey(thread)
  local before = length or log_length(thread)
  local seq = before
  local chunk = {}
  for i = first, #ARGV do
    seq = seq + 1
    chunk[#chunk + 1] = '{"threadId":' .. thread_json .. ',"seq":' .. num(seq) .. ',"createdAt":' .. num(now) ..
      ',' .. string.sub(ARGV[i], 2)
    if #chunk == APPEND_CHUNK then
      redis.call('RPUSH', log, unpack(chunk))
      chunk = {}
    end
  end
  if #chunk > 0 then redis.call('RPUSH', log, unpack(chunk)) end
  return before
end
`;
