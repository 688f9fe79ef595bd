import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, olderThan, batch. Deletes up to `batch` terminal dispatches; returns how many. */
export const PURGE = defineMutatingScript(
  'mailbox.purge',
  mailboxScript(`
local ids = redis.call('ZRANGEBYSCORE', TERMINAL, '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local fields = redis.call('HMGET', dkey(id), 't', 's')
  if fields[1] then redis.call('ZREM', takey(fields[1]), id) end
  if fields[2] then redis.call('ZREM', stkey(fields[2]), id) end
  redis.call('DEL', dkey(id))
  redis.call('ZREM', TERMINAL, id)
end
return #ids
`),
);

/**
 * ARGV: prefix, olderThan, batch, then per terminal status: its name and the seq to go on after
 * ('-inf' at first). Walks those status indexes in enqueue order, at most `batch` entries in all,
 * deleting the dispatches updated before `olderThan`. Returns { purged, then per status the seq to go
 * on after, or '' once its index was walked to the end }: the caller calls again with the statuses
 * not done. One call covers up to `batch` entries atomically.
 */
export const PURGE_STATUS = defineMutatingScript(
  'mailbox.purgeStatus',
  mailboxScript(`
local older_than, budget = tonumber(ARGV[2]), tonumber(ARGV[3])
local purged, out = 0, {}
for s = 4, #ARGV, 2 do
  local status, last = ARGV[s], ARGV[s + 1]
  local entries = {}
  if budget > 0 then
    entries = redis.call('ZRANGEBYSCORE', stkey(status), '(' .. last, '+inf', 'WITHSCORES', 'LIMIT', 0, budget)
  end
  local scanned = #entries / 2
  budget = budget - scanned
  for i = 1, #entries, 2 do
    local id = entries[i]
    last = entries[i + 1]
    local fields = redis.call('HMGET', dkey(id), 't', 's', 'u')
    if not fields[2] or fields[2] ~= status then
      redis.call('ZREM', stkey(status), id)
    elseif tonumber(fields[3]) < older_than then
      redis.call('ZREM', takey(fields[1]), id)
      redis.call('ZREM', stkey(status), id)
      redis.call('ZREM', TERMINAL, id)
      redis.call('DEL', dkey(id))
      purged = purged + 1
    end
  end
  -- walked to the end only when the budget was not what stopped the read
  if budget > 0 then out[#out + 1] = '' else out[#out + 1] = last end
end
return { purged, unpack(out) }
`),
);
