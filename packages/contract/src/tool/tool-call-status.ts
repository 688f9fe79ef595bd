import { z } from 'zod';
import { type TransitionTable, canTransition, transitionIn } from '../state/transition-table';

/** The lifecycle of one tool call (the inner layer of the run state machine). */
export const toolCallStatusSchema = z.enum([
  'new',
  'running',
  'suspended',
  'resuming',
  'succeeded',
  'failed',
  'cancelled',
]);
export type ToolCallStatus = z.infer<typeof toolCallStatusSchema>;

/** Statuses from which a call never moves again. */
export const TERMINAL_TOOL_CALL_STATUSES: readonly ToolCallStatus[] = ['succeeded', 'failed', 'cancelled'];

/**
 * Allowed tool call moves: `suspended` moves only to `resuming` or `cancelled`;
 * `resuming` may re-run, re-suspend or end; terminal states accept only themselves.
 */
export const TOOL_CALL_STATUS_TRANSITIONS: TransitionTable<ToolCallStatus> = {
  new: ['running', 'suspended'],
  running: ['suspended', 'succeeded', 'failed', 'cancelled'],
  suspended: ['resuming', 'cancelled'],
  resuming: ['running', 'suspended', 'succeeded', 'failed', 'cancelled'],
  succeeded: ['succeeded'],
  failed: ['failed'],
  cancelled: ['cancelled'],
};

/** True when the status is terminal (succeeded, failed or cancelled). */
export function isTerminalToolCallStatus(status: ToolCallStatus): boolean {
  return TERMINAL_TOOL_CALL_STATUSES.includes(status);
}

/** True when `from -> to` is a legal tool call move. */
export function canTransitionToolCall(from: ToolCallStatus, to: ToolCallStatus): boolean {
  return canTransition(TOOL_CALL_STATUS_TRANSITIONS, from, to);
}

/** Returns `to`, or throws `AwakenError('invalid_transition')` for an illegal move. */
export function transitionToolCall(from: ToolCallStatus, to: ToolCallStatus): ToolCallStatus {
  return transitionIn('ToolCallStatus', TOOL_CALL_STATUS_TRANSITIONS, from, to);
}
