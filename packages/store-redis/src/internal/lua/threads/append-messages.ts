import { defineMutatingScript } from '../idempotent-script';
import { THREAD_PRELUDE } from './thread-prelude';

/**
 * ARGV: prefix, threadId, threadIdJson, expectedLength, titleJson | '' (the title the batch gives the
 * thread, set only if it has none), body... Returns { length before, now }: the
 * caller builds the records (seq = length before + 1, ...; createdAt = now).
 */
export const APPEND_MESSAGES = defineMutatingScript(
  'threads.appendMessages',
  `${THREAD_PRELUDE}
local id, expected = ARGV[2], tonumber(ARGV[4])
if redis.call('EXISTS', thkey(id)) == 0 then return fail('not_found', 'thread ' .. id .. ' not found') end
local length = log_length(id)
if length ~= expected then
  return fail('stale_append', 'thread ' .. id .. ' has ' .. length .. ' messages, expected ' .. expected)
end
local now = now_ms()
append_messages(id, ARGV[3], 6, now)
entitle(id, ARGV[5])
touch(id, now)
return { length, num(now) }
`,
);
