import { type ToolCallDecision, toolCallDecisionSchema } from '../hitl/decision';
import { type ToolCallState, toolCallStateSchema } from '../tool/tool-call-state';
import type { RunRecord } from './run-record';
import { RUNTIME_STATE_PATH, RUN_STATE_PATHS } from './run-state-paths';

type Scope = Record<string, { tool_call_state?: unknown } | undefined>;

/**
 * The tool call states stored in a run record (path `__tool_call_scope.<callId>.tool_call_state`),
 * in step then call order. An entry that does not parse is left out, never guessed at.
 */
export function readToolCallStates(record: Pick<RunRecord, 'state'>): ToolCallState[] {
  const scope = (record.state[RUN_STATE_PATHS.toolCallScope] ?? {}) as Scope;
  const states: ToolCallState[] = [];
  for (const entry of Object.values(scope)) {
    const parsed = toolCallStateSchema.safeParse(entry?.tool_call_state);
    if (parsed.success) states.push(parsed.data);
  }
  return states.sort((a, b) => a.step - b.step || a.index - b.index);
}

/** The decisions a stored run accepted and has not applied yet (`__resume_decisions`), one per call. */
export function readQueuedDecisions(record: Pick<RunRecord, 'state'>): ToolCallDecision[] {
  const stored = (record.state[RUN_STATE_PATHS.resumeDecisions] ?? {}) as Record<string, unknown>;
  return Object.values(stored).flatMap((value) => {
    const parsed = toolCallDecisionSchema.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The ids of every decision a stored run applied: its idempotency truth, kept across activations. */
export function readAppliedDecisionIds(record: Pick<RunRecord, 'state'>): Set<string> {
  const raw = record.state[RUNTIME_STATE_PATH] as { decisionIds?: unknown } | undefined;
  const ids = Array.isArray(raw?.decisionIds) ? raw.decisionIds : [];
  return new Set(ids.filter((id): id is string => typeof id === 'string'));
}

/**
 * The ids of the tickets that expired in a stored run (the latest ones, bounded): an answer naming
 * one is refused `ticket_expired` even after the run moved past its call.
 */
export function readExpiredTicketIds(record: Pick<RunRecord, 'state'>): Set<string> {
  const raw = record.state[RUNTIME_STATE_PATH] as { expiredTicketIds?: unknown } | undefined;
  const ids = Array.isArray(raw?.expiredTicketIds) ? raw.expiredTicketIds : [];
  return new Set(ids.filter((id): id is string => typeof id === 'string'));
}
