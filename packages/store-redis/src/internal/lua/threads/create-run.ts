import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/** ARGV: prefix, runId, threadId, runJson, status. */
export const CREATE_RUN = defineMutatingScript(
  'threads.createRun',
  `${THREAD_PRELUDE}
local run, thread = ARGV[2], ARGV[3]
if redis.call('EXISTS', thkey(thread)) == 0 then return fail('not_found', 'thread ' .. thread .. ' not found') end
if redis.call('EXISTS', runkey(run)) == 1 then return fail('conflict', 'run ' .. run .. ' already exists') end
redis.call('HSET', runkey(run), 'json', ARGV[4], 'version', '0', 'threadId', thread, 'status', ARGV[5])
local seq = next_seq()
redis.call('ZADD', thrkey(thread), seq, run)
redis.call('ZADD', statuskey(ARGV[5]), seq, run)
redis.call('HSET', thkey(thread), 'latestRunId', run)
touch(thread, now_ms())
return 1
`,
);
