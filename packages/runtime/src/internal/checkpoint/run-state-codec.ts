import {
  RUNTIME_STATE_PATH,
  RUN_STATE_PATHS,
  type DecisionRecord,
  type RunLifecycleState,
  type RunRecord,
  type ToolCallDecision,
  type ToolCallState,
  readAppliedDecisionIds,
  readDecisionRecords,
  readQueuedDecisions,
  readToolCallStates,
} from '@awaken/contract';
import type { RuntimeBookkeeping } from '../session/runtime-bookkeeping';

export const RUNTIME_STATE_KEY = RUNTIME_STATE_PATH;

/** What a run record's state decodes to. */
export interface DecodedRunState {
  calls: Map<string, ToolCallState>;
  pendingDecisions: ToolCallDecision[];
  decisionRecords: DecisionRecord[];
  bookkeeping: RuntimeBookkeeping;
}

type Scope = Record<string, { tool_call_state?: unknown; suspended_call?: unknown }>;

/**
 * Ids of the decisions a stored run applied (checkpointed with it: its idempotency truth) or holds
 * accepted but not applied yet.
 */
export function readDecisionIds(record: Pick<RunRecord, 'state'>): Set<string> {
  const ids = readAppliedDecisionIds(record);
  for (const decision of readQueuedDecisions(record)) ids.add(decision.decisionId);
  return ids;
}

export function decodeRunState(record: RunRecord): DecodedRunState {
  const calls = new Map(readToolCallStates(record).map((state) => [state.callId, state]));
  const pendingDecisions = readQueuedDecisions(record);
  const raw = (record.state[RUNTIME_STATE_KEY] ?? {}) as Partial<RuntimeBookkeeping>;
  return {
    calls,
    pendingDecisions,
    decisionRecords: readDecisionRecords(record),
    bookkeeping: {
      lastSeq: raw.lastSeq ?? 0,
      decisionIds: raw.decisionIds ?? [],
      controlIds: raw.controlIds ?? [],
      input: raw.input,
      inputCommitted: raw.inputCommitted ?? true,
      stepEnded: raw.stepEnded ?? 0,
      consecutiveErrors: raw.consecutiveErrors ?? 0,
      recentCalls: raw.recentCalls ?? [],
      ...(raw.expiredTicketIds ? { expiredTicketIds: raw.expiredTicketIds } : {}),
      ...(raw.askers ? { askers: raw.askers } : {}),
    },
  };
}

export interface EncodeRunStateInput {
  lifecycle: RunLifecycleState;
  calls: Iterable<ToolCallState>;
  pendingDecisions: readonly ToolCallDecision[];
  /** The audit trail; omitted (and not written) while the run has applied no decision. */
  decisionRecords?: readonly DecisionRecord[];
  bookkeeping: RuntimeBookkeeping;
  pluginState: Record<string, unknown>;
}

/**
 * Builds RunRecord.state: the durable state paths, runtime bookkeeping and persistent run-scoped plugin keys.
 * Maps keyed by tool call id have no prototype, so an id like `__proto__` stays an ordinary key.
 */
export function encodeRunState(input: EncodeRunStateInput): Record<string, unknown> {
  const scope: Scope = Object.create(null);
  for (const call of input.calls) {
    scope[call.callId] =
      call.status === 'suspended' && call.ticket
        ? { tool_call_state: call, suspended_call: call.ticket }
        : { tool_call_state: call };
  }
  const decisions: Record<string, ToolCallDecision> = Object.create(null);
  for (const decision of input.pendingDecisions) decisions[decision.toolCallId] = decision;
  const { input: requestInput, ...rest } = input.bookkeeping;
  return {
    ...input.pluginState,
    [RUN_STATE_PATHS.run]: input.lifecycle,
    [RUN_STATE_PATHS.toolCallScope]: scope,
    [RUN_STATE_PATHS.resumeDecisions]: decisions,
    ...(input.decisionRecords?.length
      ? { [RUN_STATE_PATHS.decisionRecords]: [...input.decisionRecords] }
      : {}),
    [RUNTIME_STATE_KEY]: rest.inputCommitted ? rest : { ...rest, input: requestInput },
  };
}
