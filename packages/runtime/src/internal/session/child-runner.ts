import type { RunContext, ToolCallDecisionInput, UserMessage } from '@awaken/contract';
import type { RunHandle, RunResult } from '../../types';

/** A child run to create (see `ChildRunner.start`). */
export interface ChildStart {
  runId: string;
  threadId: string;
  agentId: string;
  /** From the top-level run's agent to the child's (its agent last). */
  agentPath: string[];
  parentRunId: string;
  parentCallId: string;
  input: UserMessage[];
  /** The parent's context (the caller), inherited. */
  context?: RunContext;
  signal: AbortSignal;
}

/** What the runtime gives a session to run child runs inline (its own `run`/`resumeRun` machinery). */
export interface ChildRunner {
  /** Creates the child run and activates it; `result` rejects `conflict` when it already exists. */
  start(child: ChildStart): RunHandle;
  /** Continues the child (its `resumeRun`), applying `decisions` first. */
  resume(runId: string, options: { decisions: ToolCallDecisionInput[]; signal: AbortSignal }): RunHandle;
  /** Cancels the child (its `cancelRun`). */
  cancel(runId: string, reason: string): Promise<RunResult>;
}
