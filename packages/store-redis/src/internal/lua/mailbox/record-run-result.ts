import { defineMutatingScript } from '../idempotent-script';
import { CLAIMANT_FENCE } from './claimant-fence';
import { mailboxScript } from './mailbox-prelude';
import { WRITE_RESULT } from './write-result';

/**
 * A claimant write (see claimant-fence.ts); ARGV[4]: the result's runId, ARGV[5..]: field/value pairs
 * (see write-result.ts).
 */
export const RECORD_RUN_RESULT = defineMutatingScript(
  'mailbox.recordRunResult',
  mailboxScript(`${WRITE_RESULT}${CLAIMANT_FENCE}
local bad = write_result(h, now, 4, #ARGV)
if bad then return redis.error_reply(bad) end
return stored(id)
`),
);
