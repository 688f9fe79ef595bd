export { createAgentRuntime } from './create-agent-runtime';
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
  RunHandle,
  RunRequest,
  RunResult,
  RunStateSnapshot,
} from './types';
