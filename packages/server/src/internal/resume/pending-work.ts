import type { RunControl, RunRecord } from '@awaken/contract';
import { readToolCallStates } from '@awaken/runtime';

/**
 * The inbox entries a resume of the run would still act on. A decision the run already recorded
 * (its call no longer waits, or waits on the decision's own id) is not one: an entry stays in the
 * inbox for a moment after the checkpoint that applied it. Nor is input on its own, for a waiting run:
 * input joins at a step boundary, which a run waiting on its calls' tickets reaches only once they
 * are answered (or cancelled) — a resume for it alone would suspend again at once, with the input
 * still there, and be resumed again without end. A done run acts on nothing; only input injected too
 * late is still work (it becomes the thread's next run).
 */
export function pendingWork(record: RunRecord, controls: readonly RunControl[]): RunControl[] {
  if (record.status === 'done') return controls.filter((control) => control.kind === 'input');
  const calls = readToolCallStates(record);
  return controls.filter((control) => {
    if (control.kind === 'input') return record.status !== 'waiting';
    if (control.kind !== 'decision') return true;
    const { decision } = control;
    const ticket = decision.ticketId ?? decision.toolCallId;
    const call =
      calls.find((state) => state.callId === decision.toolCallId) ??
      calls.find((state) => state.ticket?.suspension.id === ticket);
    // a call the record does not know: let the run judge it (it rejects and drops it)
    if (!call) return true;
    return call.status === 'suspended' && call.resume?.decisionId !== decision.decisionId;
  });
}
