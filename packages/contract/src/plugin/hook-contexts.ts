import type { ToolCallResume } from '../hitl/decision';
import type { SuspendTicket } from '../hitl/suspension';
import type { Message, ToolCall } from '../messages/message';
import type { FinishReason, InferenceOptions, ToolChoice, ToolDescriptor } from '../model/model-executor';
import type { TokenUsage } from '../model/token-usage';
import type { Phase } from '../run/phase';
import type { RunContext } from '../run/run-context';
import type { RunStatus } from '../run/run-status';
import type { TerminationReason } from '../run/termination-reason';
import type { ToolCallState } from '../tool/tool-call-state';
import type { ToolCallStatus } from '../tool/tool-call-status';
import type { ToolResult } from '../tool/tool-result';
import type { PluginStateAccess } from './state-key';

/** What every hook sees. `messages` is the thread history as the model will see it. */
export interface HookContext {
  phase: Phase;
  runId: string;
  threadId: string;
  agentId: string;
  /** The current step, 0 before the first StepStart. */
  step: number;
  state: PluginStateAccess;
  signal: AbortSignal;
  messages: readonly Message[];
  /** The run request's context (caller identity, tenant, request metadata), `{}` when none was given. */
  runContext: Readonly<RunContext>;
}

export interface RunStartContext extends HookContext {
  /** True when this activation continues a run that waited or was interrupted. */
  resumed: boolean;
}

/** The editable inference request at BeforeInference. */
export interface InferenceDraft {
  system: string | undefined;
  tools: ToolDescriptor[];
  toolChoice: ToolChoice | undefined;
  options: InferenceOptions;
}

export interface BeforeInferenceContext extends HookContext {
  request: InferenceDraft;
  /** Skips the model call; the run ends with `behavior_requested`. */
  skipInference(detail?: string): void;
}

/** The model's answer as AfterInference sees it. */
export interface InferenceResponse {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: FinishReason;
}

export interface AfterInferenceContext extends HookContext {
  readonly response: Readonly<InferenceResponse>;
  /** Replaces the tool calls the assistant turn commits and the tool round executes. */
  setToolCalls(calls: ToolCall[]): void;
  /** Ends the run after committing the assistant turn, with `behavior_requested`. */
  terminate(detail?: string): void;
}

export interface ToolCallHookContext extends HookContext {
  call: ToolCall;
  /** The decision that resumed this call, when it is replayed. */
  resume?: ToolCallResume;
  /** The ticket the call was suspended with, when it is replayed. */
  ticket?: SuspendTicket;
}

export interface ToolGateContext extends ToolCallHookContext {
  /** States of every call of the current batch, as committed so far (earlier calls may be final). */
  batch: readonly ToolCallState[];
}

export type BeforeToolExecuteContext = ToolCallHookContext;

export interface AfterToolExecuteContext extends ToolCallHookContext {
  result: ToolResult;
  status: ToolCallStatus;
}

export interface StepEndContext extends HookContext {
  /** Ends the run after this step with `stopped{code, detail}`. */
  stop(code: string, detail?: string): void;
}

export interface RunEndContext extends HookContext {
  termination: TerminationReason;
  status: RunStatus;
}
