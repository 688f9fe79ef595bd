import { defineMutatingScript } from '../idempotent-script';
import { CLAIMANT_FENCE } from './claimant-fence';
import { mailboxScript } from './mailbox-prelude';

/**
 * A claimant write (see claimant-fence.ts); ARGV[4]: error, ARGV[5]: retryAt|''. Counts the attempt, then
 * dead-letters the dispatch when its attempts are used up, else queues it again at retryAt (now when '').
 */
export const NACK = defineMutatingScript(
  'mailbox.nack',
  mailboxScript(`${CLAIMANT_FENCE}
local attempts = tonumber(h.n) + 1
with_inputs(h)
redis.call('HSET', dkey(id), 'n', num(attempts), 'x', ARGV[4], 'u', num(now))
release(h)
if attempts >= tonumber(h.m) then
  finish(h, 'dead_letter', now)
else
  local retry_at = now
  if ARGV[5] ~= '' then retry_at = tonumber(ARGV[5]) end
  redis.call('HSET', dkey(id), 's', 'queued', 'a', num(retry_at), 'ct', '', 'l', '')
  restatus(id, seq_of(h), 'claimed', 'queued')
  place_queued(id, h.t, h.q, now, retry_at)
end
return stored(id)
`),
);
