export { createAgentRuntime } from './create-agent-runtime';
export { handoffTool } from './handoff-tool';
export type { HandoffToolOptions } from './handoff-tool';
export { checkStoredDecisions } from './internal/decisions/check-stored-decisions';
export { queueDecisions } from './internal/decisions/queue-decisions';
export type {
  DecisionStores,
  PrejudgedDecisions,
  QueueDecisionsOptions,
} from './internal/decisions/queue-decisions';
export { FORK_GUARD_PLUGIN_ID } from './internal/fork/fork-guard';
export { MAX_FORK_INSTRUCTIONS_LENGTH } from './internal/fork/plan-fork';
export { DEFAULT_MAX_ROUNDS } from './internal/runtime/resolve-agents';
/** @deprecated import it from `@awaken/contract`, where the stored run state is decoded. */
export { readToolCallStates } from '@awaken/contract';
export type {
  AgentDefinition,
  AgentRuntime,
  AgentRuntimeOptions,
  DecideResult,
  ForkPlan,
  ForkRunOptions,
  ForkRunRequest,
  OnAgentChange,
  OnOpenRun,
  OnSuspend,
  ResumeRunOptions,
  RunFailure,
  RunHandle,
  RunRequest,
  RunResult,
  RunStateSnapshot,
} from './types';
export { agentTool } from './agent-tool';
export { isChildId } from './internal/child-ids/child-ids';
export type { AgentToolOptions } from './agent-tool';
export { agentPinOf, canonicalJson } from './internal/runtime/agent-pin-of';
export type { PinnedDefinition } from './internal/runtime/agent-pin-of';
export { agentPinOfDefinition } from './agent-pin-of-definition';
export { exportRunRecording } from './export-run-recording';
export type { ExportRunRecordingOptions } from './export-run-recording';
