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
  // a suspension nobody answered before its ticket's `expiresAt`: not a denial, the call never ran
  'expired',
]);
export type ToolCallStatus = z.infer<typeof toolCallStatusSchema>;

/** Statuses from which a call never moves again. */
export const TERMINAL_TOOL_CALL_STATUSES: readonly ToolCallStatus[] = [
  'succeeded',
  'failed',
  'cancelled',
  'expired',
];

/**
 * Allowed tool call moves: `suspended` moves only to `resuming`, `cancelled` or `expired`;
 * `resuming` may re-run, re-suspend or end; terminal states accept only themselves.
 */
export const TOOL_CALL_STATUS_TRANSITIONS: TransitionTable<ToolCallStatus> = {
  new: ['running', 'suspended'],
  running: ['suspended', 'succeeded', 'failed', 'cancelled'],
  suspended: ['resuming', 'cancelled', 'expired'],
  resuming: ['running', 'suspended', 'succeeded', 'failed', 'cancelled'],
  succeeded: ['succeeded'],
  failed: ['failed'],
  cancelled: ['cancelled'],
  expired: ['expired'],
};

/** True when the status is terminal (succeeded, failed, cancelled or expired). */
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
