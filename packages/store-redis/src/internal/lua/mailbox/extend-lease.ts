import { defineMutatingScript } from '../idempotent-script';
import { CLAIMANT_FENCE } from './claimant-fence';
import { mailboxScript } from './mailbox-prelude';

/** A claimant write (see claimant-fence.ts); ARGV[4]: leaseMs. */
export const EXTEND_LEASE = defineMutatingScript(
  'mailbox.extendLease',
  mailboxScript(`${CLAIMANT_FENCE}
local bad_lease = lease_out_of_range(now, tonumber(ARGV[4]))
if bad_lease then return bad_lease end
local lease = num(now + tonumber(ARGV[4]))
redis.call('HSET', dkey(id), 'l', lease, 'u', num(now))
redis.call('ZADD', LEASES, lease, id)
return stored(id)
`),
);
