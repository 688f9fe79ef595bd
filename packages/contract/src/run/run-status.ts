import { z } from 'zod';
import { type TransitionTable, canTransition, transitionIn } from '../state/transition-table';

/**
 * The coarse lifecycle of a run: `created -> running -> waiting <-> running -> done`;
 * `created` may go straight to `done`; nothing leaves `done`.
 */
export const runStatusSchema = z.enum(['created', 'running', 'waiting', 'done']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * Allowed run status moves. `running` and `waiting` also accept themselves, because a run writes
 * many checkpoints without changing status (each assistant turn and tool round of a running run; a
 * partial resume that leaves a waiting run waiting). `done` accepts only itself (an idempotent finish).
 */
export const RUN_STATUS_TRANSITIONS: TransitionTable<RunStatus> = {
  created: ['running', 'done'],
  running: ['running', 'waiting', 'done'],
  waiting: ['waiting', 'running', 'done'],
  done: ['done'],
};

/** True when `from -> to` is a legal run status move. */
export function canTransitionRunStatus(from: RunStatus, to: RunStatus): boolean {
  return canTransition(RUN_STATUS_TRANSITIONS, from, to);
}

/** Returns `to`, or throws `AwakenError('invalid_transition')` for an illegal move. */
export function transitionRunStatus(from: RunStatus, to: RunStatus): RunStatus {
  return transitionIn('RunStatus', RUN_STATUS_TRANSITIONS, from, to);
}
