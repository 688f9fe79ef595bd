import { PRELUDE } from '../prelude';

/**
 * Lua shared by the run-control inbox scripts, after the shared prelude (`../prelude.ts`). Keys (see
 * `keys/run-keys.ts`): `P ctq:<r>` (list, pending ids in arrival order), `P cte:<r>` (hash, id ->
 * entry JSON), `P ctc:<r>` (hash, decision target -> id of its pending decision; the target is the
 * contract's `decisionTarget`: `call:<toolCallId>`, or `ticket:<ticketId>` for a decision naming no
 * call), `P ctk:<r>` (hash, id -> `<kind>\n<decision target>`); wake-ups on the channel `P ctl:<r>`.
 * ARGV of every script: prefix, runId, queueKey, entriesKey, callsKey, kindsKey, ... Entry JSON is
 * built by the caller and stored verbatim; the scripts never decode it (Lua's cjson rejects some
 * escapes JSON.stringify writes), and each checks everything before its first write, so an error
 * leaves nothing half-done.
 */
export const CONTROL_INBOX_PRELUDE = `${PRELUDE}
local r, q, e, c, k = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
`;
