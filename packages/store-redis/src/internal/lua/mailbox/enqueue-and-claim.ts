import { defineMutatingScript } from '../idempotent-script';
import { ENQUEUE_ONE } from './enqueue-one';
import { mailboxScript } from './mailbox-prelude';

/**
 * ARGV: prefix, the 8 values of one dispatch (see enqueue_one), workerId, leaseMs, token,
 * dispatchInstanceId|'', then optionally the enqueue seq to use (see ENQUEUE). Enqueues it and, when its thread has no claim, claims it for the worker in
 * the same step (and records the start when an instance id is given). Returns the dispatch as stored.
 */
export const ENQUEUE_AND_CLAIM = defineMutatingScript(
  'mailbox.enqueueAndClaim',
  mailboxScript(`${ENQUEUE_ONE}
local now = now_ms()
local lease_ms = tonumber(ARGV[11])
local bad_lease = lease_out_of_range(now, lease_ms)
if bad_lease then return bad_lease end
local seq = tonumber(ARGV[14] or redis.call('INCR', P .. 'seq'))
local claim = { worker = ARGV[10], lease = num(now + lease_ms), token = ARGV[12], instance = ARGV[13] }
local epoch = enqueue_one(2, seq, now, num(now), claim)
if string.sub(epoch, 1, 7) == 'AWAKEN ' then return redis.error_reply(epoch) end
return stored(ARGV[2])
`),
);
