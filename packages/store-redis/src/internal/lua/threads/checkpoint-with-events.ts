import { APPEND_EVENTS_BODY } from '../events/append-events';
import { defineMutatingScript } from '../idempotent-script';
import { COMMIT_CHECKPOINT_BODY } from './commit-checkpoint';

/**
 * The append script, then the checkpoint script, in one atomic call. ARGV: prefix, n (how many
 * append arguments follow), the append script's arguments (after its prefix), the checkpoint
 * script's arguments (after its prefix). Each part runs its own body unchanged, with its own ARGV:
 * a refused append returns its error before anything is written; a refused checkpoint (after the
 * append wrote) returns {'checkpoint_failed', error}; both done: {'committed'}.
 */
export const CHECKPOINT_WITH_EVENTS = defineMutatingScript(
  'threads.checkpointWithEvents',
  `
local __all = ARGV
local __split = tonumber(__all[2])
local __append_args = { __all[1] }
for i = 3, 2 + __split do __append_args[#__append_args + 1] = __all[i] end
local __checkpoint_args = { __all[1] }
for i = 3 + __split, #__all do __checkpoint_args[#__checkpoint_args + 1] = __all[i] end
local function __append(ARGV)
${APPEND_EVENTS_BODY}
end
local function __checkpoint(ARGV)
${COMMIT_CHECKPOINT_BODY}
end
local appended = __append(__append_args)
if type(appended) == 'table' and appended.err then return appended end
local committed = __checkpoint(__checkpoint_args)
if type(committed) == 'table' and committed.err then return { 'checkpoint_failed', committed.err } end
return { 'committed' }
`,
);
