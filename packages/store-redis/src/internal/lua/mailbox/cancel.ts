import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, dispatchId. Queued only. */
export const CANCEL = defineMutatingScript(
  'mailbox.cancel',
  mailboxScript(`
local h, refused = read_in_status(ARGV[2], 'queued')
if not h then return redis.error_reply(refused) end
finish(h, 'cancelled', now_ms())
return stored(h.id)
`),
);
