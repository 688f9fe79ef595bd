import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/**
 * ARGV: prefix, dispatchId, runId, requeueDispatchId. Dead letters only; sets the requeue ids once
 * (a dead letter already marked is returned as is), leaving `u` alone: purge orders by it.
 */
export const MARK_REQUEUED = defineMutatingScript(
  'mailbox.markRequeued',
  mailboxScript(`
local id = ARGV[2]
local h, refused = read_in_status(id, 'dead_letter', 'a dead letter')
if not h then return redis.error_reply(refused) end
if not h.qr then redis.call('HSET', dkey(id), 'qr', ARGV[3], 'qd', ARGV[4]) end
return stored(id)
`),
);
