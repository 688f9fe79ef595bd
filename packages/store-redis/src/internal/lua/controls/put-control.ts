import { defineMutatingScript } from '../idempotent-script';
import { CONTROL_INBOX_PRELUDE } from './control-inbox-prelude';

/**
 * ARGV: ..., channel, eventMetaKey, id, kind, decision target ('' unless a decision), entryJson.
 * 'stored' | 'duplicate'. When the run's event log is finished (its meta key has a TTL), the inbox
 * keys get the same TTL, so a command that arrives late expires with the run.
 */
export const PUT_CONTROL = defineMutatingScript(
  'controls.put',
  `${CONTROL_INBOX_PRELUDE}
local channel, meta, id, kind, call = ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11]
local tag = kind .. '\\n' .. call
local earlier = redis.call('HGET', k, id)
if earlier then
  if earlier == tag then return 'duplicate' end
  return fail('conflict', 'run control ' .. id .. ' of run ' .. r .. ' is pending as another command')
end
if kind == 'decision' then
  local pending = redis.call('HGET', c, call)
  if pending then
    return fail('conflict', call .. ' of run ' .. r .. ' already has pending decision ' .. pending)
  end
  redis.call('HSET', c, call, id)
end
redis.call('HSET', e, id, ARGV[12])
redis.call('HSET', k, id, tag)
redis.call('RPUSH', q, id)
local ttl = redis.call('PTTL', meta)
if ttl > 0 then
  for _, key in ipairs({ q, e, c, k }) do redis.call('PEXPIRE', key, ttl) end
end
redis.call('PUBLISH', channel, id)
return 'stored'
`,
);
