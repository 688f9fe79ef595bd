export { createAgentRuntime } from './create-agent-runtime';
export { checkStoredDecisions } from './internal/check-stored-decision';
export { queueDecisions } from './internal/queue-decisions';
export type { DecisionStores } from './internal/queue-decisions';
export { DEFAULT_MAX_ROUNDS } from './internal/resolve-agents';
/** @deprecated import it from `@awaken/contract`, where the stored run state is decoded. */
export { readToolCallStates } from '@awaken/contract';
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
