export { createAgentRuntime } from './create-agent-runtime';
export { readToolCallStates } from './internal/run-state';
export type {
  AgentDefinition,
  AgentRuntime,
  AgentRuntimeOptions,
  OnOpenRun,
  OnSuspend,
  ResumeRunOptions,
  RunHandle,
  RunRequest,
  RunResult,
  RunStateSnapshot,
} from './types';
