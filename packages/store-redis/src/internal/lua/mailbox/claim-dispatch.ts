import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, dispatchId, workerId, leaseMs, token. Returns the dispatch, or false (not queued / thread busy). */
export const CLAIM_DISPATCH = defineMutatingScript(
  'mailbox.claimDispatch',
  mailboxScript(`
local id, worker, lease_ms, token = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local now = now_ms()
local bad_lease = lease_out_of_range(now, lease_ms)
if bad_lease then return bad_lease end
local h = read(id)
if not h then return fail('not_found', 'dispatch ' .. id .. ' not found') end
if h.s ~= 'queued' then return false end
if not claim_thread(h.t, id) then return false end
claim_one(h, now, worker, num(now + lease_ms), token)
redis.call('ZREM', tlkey(h.t), id)
redis.call('ZREM', READY, id)
redis.call('ZREM', DELAYED, id)
return stored(id)
`),
);
