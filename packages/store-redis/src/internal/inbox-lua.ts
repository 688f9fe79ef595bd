import { defineMutatingScript } from './idempotent-script';

/**
 * ARGV: prefix, queueKey, callsKey, seenKey, channel, eventMetaKey, decisionId, toolCallId,
 * decisionJson (keys: see run-keys.ts). Returns 'stored' or 'duplicate'. When the run's event log is
 * finished (its meta key has a TTL), the inbox keys get the same TTL, so a late decision expires
 * with the run.
 */
export const PUT_DECISION = defineMutatingScript(
  'inbox.put',
  `
local queue, calls, seen, channel, meta = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local decision, call = ARGV[7], ARGV[8]
local seen_call = redis.call('HGET', seen, decision)
if seen_call == call then return 'duplicate' end
if seen_call then
  return redis.error_reply('AWAKEN conflict decision ' .. decision .. ' was stored for tool call ' .. seen_call)
end
local pending = redis.call('HGET', calls, call)
if pending then
  return redis.error_reply('AWAKEN conflict tool call ' .. call .. ' already has pending decision ' .. pending)
end
redis.call('HSET', seen, decision, call)
redis.call('RPUSH', queue, ARGV[9])
redis.call('HSET', calls, call, decision)
local ttl = redis.call('PTTL', meta)
if ttl > 0 then
  for _, key in ipairs({ queue, calls, seen }) do redis.call('PEXPIRE', key, ttl) end
end
redis.call('PUBLISH', channel, decision)
return 'stored'
`,
);

/** ARGV: prefix, queueKey, callsKey. Removes and returns the pending decisions, in arrival order. */
export const DRAIN_DECISIONS = defineMutatingScript(
  'inbox.drain',
  `
local pending = redis.call('LRANGE', ARGV[2], 0, -1)
redis.call('DEL', ARGV[2], ARGV[3])
return pending
`,
);
