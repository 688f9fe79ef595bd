import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, dispatchId. Queued only. */
export const CANCEL = defineMutatingScript(
  'mailbox.cancel',
  mailboxScript(`
local id = ARGV[2]
local now = now_ms()
local h, refused = read_in_status(id, 'queued')
if not h then return redis.error_reply(refused) end
finish(h, 'cancelled', now)
return stored(id)
`),
);
