/**
 * The keys a run owns across the event log and the run-control inbox (P = prefix, r = run id), so
 * both agree on them and a finished run's inbox expires with its event log; one namespace per kind,
 * so no run id can name another run's key:
 *   P ev:<r>    stream  the event log (entry id `0-<seq>`, field `e`; `end` marks the finish)
 *   P evm:<r>   hash    the log's `last` seq, `finished` and `fence` (the highest fence a write presented)
 *   P ctq:<r>   list    pending control ids in arrival order
 *   P cte:<r>   hash    control id -> entry JSON
 *   P ctc:<r>   hash    tool call id -> id of its pending decision
 *   P ctk:<r>   hash    control id -> `<kind>\n<tool call id>` (what the scripts compare and clear,
 *                       so they never decode an entry)
 *   channel P ctl:<r>   wake-ups published by `put`
 */
export function runKeys(prefix: string, runId: string) {
  return {
    events: `${prefix}ev:${runId}`,
    eventMeta: `${prefix}evm:${runId}`,
    controlQueue: `${prefix}ctq:${runId}`,
    controlEntries: `${prefix}cte:${runId}`,
    controlCalls: `${prefix}ctc:${runId}`,
    controlKinds: `${prefix}ctk:${runId}`,
    controlChannel: `${prefix}ctl:${runId}`,
  };
}

/** The control inbox keys of a run, in the order the scripts take them: queue, entries, calls, kinds. */
export function inboxKeys(prefix: string, runId: string): [string, string, string, string] {
  const keys = runKeys(prefix, runId);
  return [keys.controlQueue, keys.controlEntries, keys.controlCalls, keys.controlKinds];
}
