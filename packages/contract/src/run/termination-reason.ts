import { z } from 'zod';
import type { RunStatus } from './run-status';

/** Why a stop condition ended a run: a stable code (e.g. `max_rounds`) and an optional detail. */
export const stoppedReasonSchema = z.object({
  code: z.string().min(1),
  detail: z.string().optional(),
});
export type StoppedReason = z.infer<typeof stoppedReasonSchema>;

/**
 * Why a run ended, as a tagged union on `type`. Only `suspended` leaves the run
 * resumable (status `waiting`); every other variant maps to `done`.
 */
export const terminationReasonSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('natural_end') }),
  z.object({ type: z.literal('behavior_requested'), detail: z.string().optional() }),
  z.object({ type: z.literal('stopped'), code: z.string().min(1), detail: z.string().optional() }),
  z.object({ type: z.literal('cancelled'), reason: z.string().optional() }),
  z.object({ type: z.literal('blocked'), reason: z.string() }),
  z.object({ type: z.literal('suspended') }),
  z.object({ type: z.literal('error'), message: z.string(), code: z.string().optional() }),
]);
export type TerminationReason = z.infer<typeof terminationReasonSchema>;
export type TerminationReasonType = TerminationReason['type'];

/** `suspended` → `waiting`; every other reason → `done`. */
export function terminationToRunStatus(reason: TerminationReason): Extract<RunStatus, 'waiting' | 'done'> {
  return reason.type === 'suspended' ? 'waiting' : 'done';
}
