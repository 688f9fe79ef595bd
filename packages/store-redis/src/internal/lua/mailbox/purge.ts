import { defineMutatingScript } from '../idempotent-script';
import { mailboxScript } from './mailbox-prelude';

/** ARGV: prefix, olderThan, batch. Deletes up to `batch` terminal dispatches; returns how many. */
export const PURGE = defineMutatingScript(
  'mailbox.purge',
  mailboxScript(`
local ids = redis.call('ZRANGEBYSCORE', TERMINAL, '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local thread = redis.call('HGET', dkey(id), 't')
  if thread then redis.call('ZREM', takey(thread), id) end
  redis.call('DEL', dkey(id))
  redis.call('ZREM', TERMINAL, id)
end
return #ids
`),
);
