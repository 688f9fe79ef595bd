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

/**
 * What every hook sees. The hooks of one phase run one after another in plugin order, each awaited
 * before the next starts; all of them see the same context except `state`, which is each plugin's
 * own. A hook that throws ends the run with `error`. (With the `parallel` executor, the hooks of
 * different calls may interleave.)
 */
export interface HookContext {
  /** The phase whose hook is running. */
  phase: Phase;
  runId: string;
  threadId: string;
  /** The id of the agent definition the run executes. */
  agentId: string;
  /**
   * The current step, counted from 1 over the whole run (across activations), 0 before the first
   * StepStart. The hooks about one call (ToolGate, BeforeToolExecute, AfterToolExecute) see the step
   * the call was made in.
   */
  step: number;
  /**
   * This plugin's state: only the keys it declares in `stateKeys` are reachable (any other throws
   * `invalid_config`). Persistent keys written here are stored with the run's next checkpoint.
   */
  state: PluginStateAccess;
  /**
   * The activation's abort signal: it fires when the run is cancelled (the handle's `cancel`,
   * `cancelRun`, the request's signal, a cancel from the inbox) or failed (`failRun`), when its
   * `timeout` stop condition passes, or when the activation loses its lease. A hook that waits on
   * something slow should pass it on. It may already be aborted when a hook runs (RunEnd of a
   * cancelled run); a detach does not fire it.
   */
  signal: AbortSignal;
  /**
   * The thread's history as the model will see it, with what this run added so far (also messages
   * not yet checkpointed). Read-only: hooks must not change it (the history changes only through
   * what the run commits).
   */
  messages: readonly Message[];
  /** The run request's context (caller identity, tenant, request metadata), `{}` when none was given. */
  runContext: Readonly<RunContext>;
}

/**
 * RunStart runs once per activation, first: before the request's input is committed and before any
 * step. After it, the persistent plugin state is shown in a `state_snapshot` when non-empty.
 */
export interface RunStartContext extends HookContext {
  /**
   * False on a run's first activation (also the first activation of a run stored by `createRun`);
   * true when this activation continues a run that waited or was interrupted — a `resumeRun`, or the
   * next activation of a run kept live with `onSuspend: 'wait'` once its decision arrived.
   */
  resumed: boolean;
}

/**
 * The editable inference request at BeforeInference. It is built anew for every model call (from the
 * agent definition and the request's client tools) and never stored: an edit lasts for this one call,
 * so a plugin that wants it on every call makes it at every BeforeInference.
 */
export interface InferenceDraft {
  /** The system prompt; starts as the agent's `systemPrompt`. `undefined`: none is sent. */
  system: string | undefined;
  /**
   * The tools offered to the model; starts as copies of the agent's tools and the request's client
   * tools. This only changes what the model is offered, not what may run: a call to a tool removed
   * here still runs if the agent or the request has it (refuse it at ToolGate), and a call to a tool
   * added here that neither has fails as `unknown tool` unless a ToolGate decision resolves it.
   */
  tools: ToolDescriptor[];
  /** How the model must use the tools; starts `undefined` (the provider's default). */
  toolChoice: ToolChoice | undefined;
  /** Provider-independent options; starts as a copy of the agent's `inferenceOptions`. */
  options: InferenceOptions;
}

/** BeforeInference runs after StepStart, before each model call. */
export interface BeforeInferenceContext extends HookContext {
  /**
   * The request the model will be called with. Hooks edit it in place, in plugin order, each seeing
   * the edits of the plugins before it; the model is called with what it holds after the last hook.
   */
  request: InferenceDraft;
  /**
   * Skips the model call; the run ends with `behavior_requested` (`detail`, or a default). The other
   * plugins' hooks of this phase still run; the step ends with StepEnd, without stop conditions.
   */
  skipInference(detail?: string): void;
}

/**
 * The model's answer as AfterInference sees it, complete: a model call that fails or is cut never
 * reaches AfterInference.
 */
export interface InferenceResponse {
  /** The assistant text of this model call, `''` when it wrote none. */
  text: string;
  /** The reasoning the model streamed, `''` when none. */
  reasoning: string;
  /**
   * The tool calls as the model made them, arguments parsed from JSON (text that does not parse is
   * kept as the raw string, and the call fails with the reason when the tool round reaches it).
   */
  toolCalls: ToolCall[];
  /** The token usage of this model call; it is already added to the run's usage. */
  usage: TokenUsage;
  finishReason: FinishReason;
}

/**
 * AfterInference runs once after each completed model call, before the assistant turn is committed:
 * a hook may replace the tool calls the turn commits or end the run after it.
 */
export interface AfterInferenceContext extends HookContext {
  /** The model's answer; it stays the model's, whatever `setToolCalls` was given. */
  readonly response: Readonly<InferenceResponse>;
  /**
   * Replaces the tool calls the assistant turn commits and the tool round executes; the last call
   * wins. The calls are copied. A malformed one (empty id or tool name, arguments JSON cannot hold)
   * is committed already `failed`, so it never executes, and the model reads why.
   */
  setToolCalls(calls: ToolCall[]): void;
  /**
   * Ends the run after committing the assistant turn, with `behavior_requested` (`detail`, or a
   * default). The turn's tool calls never run: they are recorded `cancelled`.
   */
  terminate(detail?: string): void;
}

/** What the hooks about one tool call (ToolGate, BeforeToolExecute, AfterToolExecute) see. */
export interface ToolCallHookContext extends HookContext {
  /**
   * The call as it would run: the model's id and tool name, with the arguments the tool receives —
   * the decision's payload in `pass_decision_to_tool` mode, else arguments a human edited when
   * approving, else the model's.
   */
  call: ToolCall;
  /** The decision that resumed this call, when it is replayed. */
  resume?: ToolCallResume;
  /**
   * The ticket the call was suspended with, when it is replayed (at AfterToolExecute of a call that
   * just suspended, its new ticket).
   */
  ticket?: SuspendTicket;
}

/**
 * ToolGate judges each call whose arguments passed their checks (valid JSON, within the nesting
 * limit, valid for the tool's schema), before the unknown-tool check, so a plugin may suspend or
 * resolve a call to a tool this process does not have. A call resumed in `use_decision_as_tool_result`
 * mode is not judged: the decision is its result.
 */
export interface ToolGateContext extends ToolCallHookContext {
  /** States of every call of the current batch, as committed so far (earlier calls may be final). */
  batch: readonly ToolCallState[];
}

/**
 * BeforeToolExecute runs right before a tool's body, once for each call that really executes: not
 * for a call the gate resolved (blocked, suspended, set, cancelled), whose arguments failed their
 * checks, or that a client runs. A call whose result was not checkpointed before its process died is
 * executed again by the next activation, and this hook runs again with it. A throwing hook ends the
 * run with `error`; the body does not run.
 */
export type BeforeToolExecuteContext = ToolCallHookContext;

/**
 * AfterToolExecute runs each time a call reaches an outcome, whether its body ran or not: it
 * succeeded, failed (also a failed argument check, an unknown tool, a block), was set by the gate,
 * was cancelled (also by the run ending with the call open) or suspended. A replayed call reaches a
 * new outcome, so the hook runs for it again.
 */
export interface AfterToolExecuteContext extends ToolCallHookContext {
  /** The result as recorded for the call (`pending`, with its suspension, for a call that suspended). */
  result: ToolResult;
  /** The call's status after this outcome: `succeeded`, `failed`, `cancelled` or `suspended`. */
  status: ToolCallStatus;
}

/**
 * StepEnd runs once per step: when its tool round completed (before the declared stop conditions),
 * and when the step ends the run early (a text-only answer, `skipInference`, `terminate`). A step cut
 * by a cancel, error, block or suspension gets no StepEnd, only its `step_end` event.
 */
export interface StepEndContext extends HookContext {
  /**
   * Ends the run after this step with `stopped{code, detail}`. The first call wins, and it wins over
   * the declared stop conditions. Ignored when the step already ends the run (a text-only answer,
   * `skipInference`, `terminate`).
   */
  stop(code: string, detail?: string): void;
}

/**
 * RunEnd runs once at the end of every activation that ran RunStart and ends the run or leaves it
 * waiting — every exit path, a suspension included. It runs after the open tool calls were cancelled
 * and before the terminal checkpoint, so persistent state set here is stored with it. An activation
 * that stops without an outcome (a detach, a lost lease, a transient model failure with
 * `transientModelErrors: 'interrupt'`) runs no RunEnd. A throwing hook makes the termination `error`.
 */
export interface RunEndContext extends HookContext {
  /** Why the run ended (`suspended` when it waits for decisions). */
  termination: TerminationReason;
  /** `waiting` for a suspension, `done` otherwise. */
  status: RunStatus;
}
