import { defineMutatingScript } from './idempotent-script';

/**
 * ARGV: prefix, streamKey, metaKey, runId, firstSeq, eventJson... (keys: see run-keys.ts). Rejects a
 * batch that does not continue the stored last seq, or any append to a finished log, before writing.
 */
export const APPEND_EVENTS = defineMutatingScript(
  'events.append',
  `
local stream, meta, run = ARGV[2], ARGV[3], ARGV[4]
local first = tonumber(ARGV[5])
local state = redis.call('HMGET', meta, 'last', 'finished')
local last = tonumber(state[1] or '0')
if state[2] == '1' then
  return redis.error_reply('AWAKEN conflict event log of run ' .. run .. ' is finished')
end
if first ~= last + 1 then
  return redis.error_reply('AWAKEN conflict event log of run ' .. run .. ' is at seq ' .. last ..
    ', append starts at ' .. first)
end
for i = 6, #ARGV do
  redis.call('XADD', stream, '0-' .. string.format('%.0f', first + i - 6), 'e', ARGV[i])
end
redis.call('HSET', meta, 'last', string.format('%.0f', first + #ARGV - 6))
return 1
`,
);

/**
 * ARGV: prefix, streamKey, metaKey, ttlMs, inboxKey... Marks the log finished and lets its keys and
 * the run's inbox keys expire after ttlMs (0: at once). The first finish adds an end marker entry
 * (`0-<last + 1>`, field `end`, never returned as an event) so that tails blocked in XREAD wake up;
 * appends are rejected from then on, so the id is never wanted by an event.
 */
export const FINISH_LOG = defineMutatingScript(
  'events.finish',
  `
local stream, meta, ttl = ARGV[2], ARGV[3], ARGV[4]
local state = redis.call('HMGET', meta, 'last', 'finished')
if state[2] ~= '1' then
  redis.call('XADD', stream, '0-' .. string.format('%.0f', tonumber(state[1] or '0') + 1), 'end', '1')
end
redis.call('HSET', meta, 'finished', '1')
for i = 2, #ARGV do
  if i ~= 4 then redis.call('PEXPIRE', ARGV[i], ttl) end
end
return 1
`,
);
