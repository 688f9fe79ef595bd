import { z } from 'zod';
import { runStatusSchema } from './run-status';
import { terminationReasonSchema } from './termination-reason';

/** The names of the durable run state paths (`__run`, `__tool_call_scope`, `__resume_decisions`). */
export const RUN_STATE_PATHS = {
  run: '__run',
  toolCallScope: '__tool_call_scope',
  resumeDecisions: '__resume_decisions',
  /** The audit trail: one `DecisionRecord` per applied decision, oldest first. */
  decisionRecords: '__decision_records',
} as const;

/**
 * Where the runtime keeps its bookkeeping in `RunRecord.state` (the last event seq, the ids of every
 * decision the run applied — its idempotency truth — and the ids of the other commands it applied).
 */
export const RUNTIME_STATE_PATH = '__runtime';

/** `__tool_call_scope.<callId>.tool_call_state` */
export function toolCallStatePath(callId: string): string {
  return `${RUN_STATE_PATHS.toolCallScope}.${callId}.tool_call_state`;
}

/** `__tool_call_scope.<callId>.suspended_call` */
export function suspendedCallPath(callId: string): string {
  return `${RUN_STATE_PATHS.toolCallScope}.${callId}.suspended_call`;
}

/** The run lifecycle record stored at `__run`. */
export const runLifecycleStateSchema = z.object({
  id: z.string().min(1),
  status: runStatusSchema,
  doneReason: terminationReasonSchema.optional(),
  updatedAt: z.number().int().nonnegative(),
});
export type RunLifecycleState = z.infer<typeof runLifecycleStateSchema>;
