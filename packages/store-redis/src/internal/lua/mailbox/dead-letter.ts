import { defineMutatingScript } from '../idempotent-script';
import { CLAIMANT_FENCE } from './claimant-fence';
import { mailboxScript } from './mailbox-prelude';

/** A claimant write (see claimant-fence.ts); ARGV[4]: error. */
export const DEAD_LETTER = defineMutatingScript(
  'mailbox.deadLetter',
  mailboxScript(`${CLAIMANT_FENCE}
redis.call('HSET', dkey(id), 'x', ARGV[4])
release(h)
finish(h, 'dead_letter', now)
return stored(id)
`),
);
