import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, dispatchId. Queued only. */
export const CANCEL = defineMutatingScript(
  'mailbox.cancel',
  mailboxScript(`
local id = ARGV[2]
local now = now_ms()
local h = read(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.s ~= 'queued' then return fail('conflict', 'dispatch ' .. id .. ' is ' .. h.s .. ', not queued') end
finish(h, 'cancelled', now)
return stored(id)
`),
);
