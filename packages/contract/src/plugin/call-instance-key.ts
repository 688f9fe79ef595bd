/**
 * The key of one tool call instance within a run: `<step>:<toolCallId>`.
 *
 * Models reuse tool call ids across turns (several providers number the calls of each response
 * `call_0`, `call_1`, …), so an id alone does not name a call. Anything a plugin remembers per call —
 * an approval, a counter, a ticket id — must be keyed by the instance (this key, or the call's ticket
 * id), never by the tool call id alone; otherwise an approval given in one turn would answer a
 * different call that reuses the id in a later turn. Within one step an id names one call (the runtime
 * runs a repeated id of one turn once).
 */
export function callInstanceKey(context: { step: number; call: { id: string } }): string {
  return `${context.step}:${context.call.id}`;
}
