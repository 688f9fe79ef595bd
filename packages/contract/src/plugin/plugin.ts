import type {
  AfterInferenceContext,
  AfterToolExecuteContext,
  BeforeInferenceContext,
  BeforeToolExecuteContext,
  HookContext,
  RunEndContext,
  RunStartContext,
  StepEndContext,
  ToolGateContext,
} from './hook-contexts';
import type { StateKey } from './state-key';
import type { ToolGateDecision } from './tool-gate-decision';

type Awaitable<T> = T | Promise<T>;

/** One hook per phase; every hook is optional. Hooks of several plugins run in plugin order. */
export interface PluginHooks {
  runStart?(context: RunStartContext): Awaitable<void>;
  stepStart?(context: HookContext): Awaitable<void>;
  beforeInference?(context: BeforeInferenceContext): Awaitable<void>;
  afterInference?(context: AfterInferenceContext): Awaitable<void>;
  /**
   * Pure judgement for one call: must not cause side effects, because it is re-evaluated (after
   * earlier calls of the batch committed, and again when the call is replayed after a decision).
   * The first non-`allow` decision across plugins wins; `undefined` means allow.
   */
  toolGate?(context: ToolGateContext): Awaitable<ToolGateDecision | undefined>;
  /** Runs exactly once for each call that really executes, right before its body. */
  beforeToolExecute?(context: BeforeToolExecuteContext): Awaitable<void>;
  afterToolExecute?(context: AfterToolExecuteContext): Awaitable<void>;
  stepEnd?(context: StepEndContext): Awaitable<void>;
  runEnd?(context: RunEndContext): Awaitable<void>;
}

/** An extension of the run loop. Built-in extensions use exactly this interface. */
export interface Plugin {
  id: string;
  /**
   * State keys the plugin reads and writes; persistent ones are checkpointed. A hook's
   * `context.state` reaches only these: any other key (also one another plugin declares) throws
   * `AwakenError('invalid_config')` naming the key and the plugin, so nothing a plugin keeps can be
   * silently lost at a suspension.
   */
  stateKeys?: readonly StateKey<any>[];
  hooks: PluginHooks;
}
