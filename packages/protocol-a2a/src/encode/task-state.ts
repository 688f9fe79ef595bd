import type { RunStatus, TerminationReason } from '@awaken/contract';
import type { TaskState } from '../wire/a2a-types';

/**
 * The A2A state of a run: created → SUBMITTED, running → WORKING, waiting → INPUT_REQUIRED; a done
 * run by its termination: natural end, a requested end or a stop condition → COMPLETED,
 * cancelled → CANCELED, blocked → REJECTED, error → FAILED.
 */
export function taskStateOf(run: {
  status: RunStatus;
  termination?: TerminationReason | undefined;
}): TaskState {
  switch (run.status) {
    case 'created':
      return 'TASK_STATE_SUBMITTED';
    case 'running':
      return 'TASK_STATE_WORKING';
    case 'waiting':
      return 'TASK_STATE_INPUT_REQUIRED';
    default:
      return terminalStateOf(run.termination);
  }
}

/** The terminal state of a finished run's termination reason. */
export function terminalStateOf(termination: TerminationReason | undefined): TaskState {
  switch (termination?.type) {
    case 'cancelled':
      return 'TASK_STATE_CANCELED';
    case 'blocked':
      return 'TASK_STATE_REJECTED';
    case 'error':
      return 'TASK_STATE_FAILED';
    case 'suspended':
      return 'TASK_STATE_INPUT_REQUIRED';
    default:
      return 'TASK_STATE_COMPLETED';
  }
}
