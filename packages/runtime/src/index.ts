export { createAgentRuntime } from './create-agent-runtime';
export { checkStoredDecisions } from './internal/check-stored-decision';
export { DEFAULT_MAX_ROUNDS } from './internal/resolve-agents';
export { readToolCallStates } from './internal/run-state';
export type {
  AgentDefinition,
  AgentRuntime,
  AgentRuntimeOptions,
  DecideResult,
  OnOpenRun,
  OnSuspend,
  ResumeRunOptions,
  RunFailure,
  RunHandle,
  RunRequest,
  RunResult,
  RunStateSnapshot,
} from './types';
