import type { ToolCallStatus } from '../tool/tool-call-status';

/** The status a set of tool calls implies for its run. */
export type DerivedRunStatus = 'running' | 'waiting' | 'done';

/**
 * The decision table: any `running`/`resuming` call → `running`; otherwise any `suspended`
 * call → `waiting`; otherwise (all terminal, or `new` only, or none) → `done`, meaning the step's
 * tool round is complete. A `new` call does not hold the run by itself.
 */
export function deriveRunStatus(calls: Iterable<{ status: ToolCallStatus }>): DerivedRunStatus {
  let hasSuspended = false;
  for (const call of calls) {
    if (call.status === 'running' || call.status === 'resuming') return 'running';
    if (call.status === 'suspended') hasSuspended = true;
  }
  return hasSuspended ? 'waiting' : 'done';
}
