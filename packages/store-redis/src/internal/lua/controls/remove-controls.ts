import { defineMutatingScript } from '../idempotent-script';
import { CONTROL_INBOX_PRELUDE } from './control-inbox-prelude';

/**
 * ARGV: ..., id... Removes exactly those entries; unknown ids are ignored. The target of a
 * decision is what `put` recorded beside it (the text after the first newline of its tag).
 */
export const REMOVE_CONTROLS = defineMutatingScript(
  'controls.remove',
  `${CONTROL_INBOX_PRELUDE}
for i = 7, #ARGV do
  local id = ARGV[i]
  local tag = redis.call('HGET', k, id)
  if tag then
    local newline = string.find(tag, '\\n', 1, true)
    local call = string.sub(tag, newline + 1)
    local kind = string.sub(tag, 1, newline - 1)
    if kind == 'decision' and redis.call('HGET', c, call) == id then redis.call('HDEL', c, call) end
    redis.call('HDEL', e, id)
    redis.call('HDEL', k, id)
    redis.call('LREM', q, 1, id)
  end
end
return 1
`,
);
