import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, threadId. Returns { epoch, supersededCount, activeDispatch fields|false, its id|false }. */
export const INTERRUPT = defineMutatingScript(
  'mailbox.interrupt',
  mailboxScript(`
local thread = ARGV[2]
local now = now_ms()
local epoch = redis.call('HINCRBY', THREADS, 'e:' .. thread, 1)
local count = 0
for _, key in ipairs({ tqkey(thread), tlkey(thread) }) do
  for _, id in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    local h = read(id)
    if h then
      finish(h, 'superseded', now)
      count = count + 1
    end
  end
end
-- Its claim (if any) now belongs to an older epoch: marked so the fencing check sees it (see fenced).
local claimed = redis.call('HGET', THREADS, 'c:' .. thread)
if claimed and redis.call('EXISTS', dkey(claimed)) == 1 then
  redis.call('HSET', dkey(claimed), 'z', '1')
  return { epoch, count, stored(claimed), claimed }
end
return { epoch, count, false, false }
`),
);
