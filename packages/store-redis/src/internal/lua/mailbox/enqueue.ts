import { defineMutatingScript } from '../idempotent-script';
import { ENQUEUE_ONE } from './enqueue-one';
import { mailboxScript } from './mailbox-prelude';

/**
 * Batched: ARGV: prefix, then 8 values per dispatch (see enqueue_one), then optionally the first
 * enqueue seq to use (a sharded mailbox takes its seqs from one counter of the whole mailbox, so
 * that order is comparable across shards; otherwise the shard's own `P seq` counts). Enqueues them
 * in order, each checked on its own (and run by per_item: one that fails leaves the others alone).
 * Returns { now, then per dispatch its dispatchEpoch or its rejection text }: the caller knows the rest.
 */
export const ENQUEUE = defineMutatingScript(
  'mailbox.enqueue',
  mailboxScript(`${ENQUEUE_ONE}
local now = now_ms()
local stamp = num(now)
local out = { stamp }
local count = math.floor((#ARGV - 1) / 8)
local seq
if #ARGV > 1 + count * 8 then seq = tonumber(ARGV[#ARGV]) - 1
else seq = redis.call('INCRBY', P .. 'seq', count) - count end
for i = 2, 1 + count * 8, 8 do
  seq = seq + 1
  out[#out + 1] = per_item(enqueue_one, i, seq, now, stamp)
end
return out
`),
);
