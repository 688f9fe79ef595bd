import { defineMutatingScript } from '../idempotent-script';
import { CLAIMANT_FENCE } from './claimant-fence';
import { mailboxScript } from './mailbox-prelude';

/** A claimant write (see claimant-fence.ts); ARGV[4]: dispatchInstanceId. */
export const RECORD_DISPATCH_START = defineMutatingScript(
  'mailbox.recordDispatchStart',
  mailboxScript(`${CLAIMANT_FENCE}
redis.call('HSET', dkey(id), 'ri', ARGV[4], 'rs', 'running', 'u', num(now))
return stored(id)
`),
);
