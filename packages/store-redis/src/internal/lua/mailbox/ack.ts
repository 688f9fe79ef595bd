import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';
import { WRITE_RESULT } from './write-result';

/**
 * Batched: ARGV: prefix, then per ack: dispatchId, claimToken, the count n of result values that
 * follow ('0': none), and those n values (runId, then field/value pairs, see write_result). Acks them
 * in order, each fenced on its own (and run by per_item: one that fails leaves the others alone); an
 * ack with a result records it first, after the same fencing check. Returns { now, then per ack the
 * fields as read before it (without a result: the client applies the ack, status acked, updatedAt
 * now, no claimToken, no leaseUntil) or as stored after it (with a result), or its rejection text }.
 */
export const ACK = defineMutatingScript(
  'mailbox.ack',
  mailboxScript(`${WRITE_RESULT}
local now = now_ms()
local function ack(id, token, first, last)
  local h, rejected = fenced(id, token, now)
  if not h then return rejected end
  if last >= first then
    local bad = write_result(h, now, first, last)
    if bad then return bad end
  end
  release(h)
  finish(h, 'acked', now)
  if last >= first then return stored(id) end
  return h.raw
end
local out = { num(now) }
local i = 2
while i <= #ARGV do
  local count = tonumber(ARGV[i + 2])
  out[#out + 1] = per_item(ack, ARGV[i], ARGV[i + 1], i + 3, i + 2 + count)
  i = i + 3 + count
end
return out
`),
);
