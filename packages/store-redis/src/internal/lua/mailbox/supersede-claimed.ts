import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, dispatchId. Claimed with an epoch older than its thread's only. */
export const SUPERSEDE_CLAIMED = defineMutatingScript(
  'mailbox.supersedeClaimed',
  mailboxScript(`
local id = ARGV[2]
local now = now_ms()
local h, refused = read_in_status(id, 'claimed')
if not h then return redis.error_reply(refused) end
with_inputs(h)
if tonumber(h.e) >= thread_epoch(h.t) then
  return fail('conflict', 'dispatch ' .. id .. ' belongs to the current epoch; interrupt the thread first')
end
release(h)
finish(h, 'superseded', now)
return stored(id)
`),
);
