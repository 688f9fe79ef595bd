import { APPEND_EVENTS_BODY } from '../events/append-events';
import { EVENT_LOG_PRELUDE } from '../events/event-log-prelude';
import { FINISH_LOG_BODY } from '../events/finish-log';
import { defineMutatingScript } from '../idempotent-script';
import { COMMIT_CHECKPOINT_BODY } from './commit-checkpoint';

/**
 * The checks of the append script, writing nothing (same ARGV, same errors in the same order): run on
 * the events before a checkpoint followed by the run's last events, so the last events, appended
 * after the checkpoint, can no longer be refused once anything is written.
 */
const CHECK_APPEND_BODY = `${EVENT_LOG_PRELUDE}
local stale = check_fence()
if stale then return stale end
if #ARGV < 8 then return 0 end
local first = tonumber(ARGV[6])
local state = redis.call('HMGET', meta, 'last', 'finished')
local last = tonumber(state[1] or '0')
if state[2] == '1' then
  return fail('conflict', 'event log of run ' .. run .. ' is finished')
end
if ARGV[7] ~= '1' then
  return fail('conflict', 'events must belong to run ' .. run .. ' with consecutive seq')
end
if first ~= last + 1 then
  return fail('conflict', 'event log of run ' .. run .. ' is at seq ' .. last ..
    ', append starts at ' .. first)
end
return 1
`;

/**
 * The joint write with the run's end (see CheckpointEnd in the contract), in one atomic call: the
 * events before the checkpoint and the last events are checked together (an append of both, writing
 * nothing: a refusal returns its error with nothing written), the events appended, the checkpoint
 * committed, and — only when it committed — the last events appended and the log finished. ARGV:
 * prefix, then four sections each preceded by its length: the check's append arguments (after the
 * prefix), the append's, the last events' append's, the finish script's (none: the log stays open),
 * then the checkpoint script's arguments. A refused checkpoint returns {'checkpoint_failed', error}
 * (the events before it written, nothing after); all done: {'committed'}.
 */
export const CHECKPOINT_WITH_END = defineMutatingScript(
  'threads.checkpointWithEnd',
  `
local __all = ARGV
local __sections = {}
local __at = 2
for s = 1, 4 do
  local n = tonumber(__all[__at])
  local section = { __all[1] }
  for i = __at + 1, __at + n do section[#section + 1] = __all[i] end
  __sections[s] = section
  __at = __at + n + 1
end
local __checkpoint_args = { __all[1] }
for i = __at, #__all do __checkpoint_args[#__checkpoint_args + 1] = __all[i] end
local function __check(ARGV)
${CHECK_APPEND_BODY}
end
local function __append(ARGV)
${APPEND_EVENTS_BODY}
end
local function __checkpoint(ARGV)
${COMMIT_CHECKPOINT_BODY}
end
local function __finish(ARGV)
${FINISH_LOG_BODY}
end
local checked = __check(__sections[1])
if type(checked) == 'table' and checked.err then return checked end
local appended = __append(__sections[2])
if type(appended) == 'table' and appended.err then return appended end
local committed = __checkpoint(__checkpoint_args)
if type(committed) == 'table' and committed.err then return { 'checkpoint_failed', committed.err } end
if #__sections[3] > 1 then __append(__sections[3]) end
if #__sections[4] > 1 then __finish(__sections[4]) end
return { 'committed' }
`,
);
