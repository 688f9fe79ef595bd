/**
 * The keys a run owns across the event log and the decision inbox (P = prefix, r = run id), so both
 * scripts agree on them and a finished run's inbox expires with its event log:
 *   P ev:<r>        stream  the event log (entry id `0-<seq>`, field `e`; `end` marks the finish)
 *   P evm:<r>       hash    the log's `last` seq and `finished`
 *   P in:<r>:q      list    pending decisions (JSON) in arrival order
 *   P in:<r>:c      hash    tool call id -> pending decision id
 *   P in:<r>:seen   hash    every decision id stored for the run -> its tool call id
 *   channel P in:<r>        wake-ups published by `put`
 */
export function runKeys(prefix: string, runId: string) {
  const inbox = `${prefix}in:${runId}`;
  return {
    events: `${prefix}ev:${runId}`,
    eventMeta: `${prefix}evm:${runId}`,
    inboxChannel: inbox,
    inboxQueue: `${inbox}:q`,
    inboxCalls: `${inbox}:c`,
    inboxSeen: `${inbox}:seen`,
  };
}

/** The inbox keys of a run, in the order the scripts take them: queue, calls, seen. */
export function inboxKeys(prefix: string, runId: string): [string, string, string] {
  const keys = runKeys(prefix, runId);
  return [keys.inboxQueue, keys.inboxCalls, keys.inboxSeen];
}
