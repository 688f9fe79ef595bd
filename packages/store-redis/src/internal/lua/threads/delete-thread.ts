import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * ARGV: prefix, threadId. Returns 1 when deleted, 0 when unknown; refused (`conflict`) while the
 * thread has branches (they read its messages). A deleted branch leaves its source's branch list.
 */
export const DELETE_THREAD = defineMutatingScript(
  'threads.deleteThread',
  `${THREAD_PRELUDE}
local id = ARGV[2]
if redis.call('EXISTS', thkey(id)) == 0 then return 0 end
local branches = redis.call('ZCARD', thbkey(id))
if branches > 0 then
  return fail('conflict', 'thread ' .. id .. ' has ' .. branches .. ' branches; delete them first (they share its messages)')
end
local source = redis.call('HGET', thkey(id), 'branchSource')
if source then redis.call('ZREM', thbkey(source), id) end
for _, run in ipairs(redis.call('ZRANGE', thrkey(id), 0, -1)) do
  local status = redis.call('HGET', runkey(run), 'status')
  if status then redis.call('ZREM', statuskey(status), run) end
  redis.call('DEL', runkey(run))
end
redis.call('DEL', thkey(id), thmkey(id), thrkey(id))
redis.call('ZREM', P .. 'threads', id)
redis.call('ZREM', P .. 'threads:written', id)
return 1
`,
);
