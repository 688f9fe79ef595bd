import {
  type ToolCallState,
  type ToolCallStatus,
  deriveRunStatus,
  transitionToolCall,
} from '@awaken/contract';
import type { RunSession } from '../session/run-session';

/** Re-derives the run status from the batch and reports the change to `onStateChange`. */
export function syncRunStatus(session: RunSession): void {
  const { run, batch } = session;
  const derived = deriveRunStatus(batch.calls);
  if (derived === 'waiting' && run.status === 'running') run.setStatus('waiting');
  if (derived === 'running' && run.status === 'waiting') run.setStatus('running');
  session.services.onStateChange?.({
    runId: session.runId,
    status: run.status,
    derived,
    calls: batch.calls.map((call) => structuredClone(call)),
  });
}

/** Moves a call through the contract's transition table and re-derives the run status. */
export function moveCall(session: RunSession, state: ToolCallState, to: ToolCallStatus): void {
  if (state.status !== to) state.status = transitionToolCall(state.status, to);
  state.updatedAt = session.now();
  syncRunStatus(session);
}
