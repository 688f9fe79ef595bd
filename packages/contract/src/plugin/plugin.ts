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

/**
 * One hook per phase; every hook is optional. Hooks of several plugins run in plugin order, each
 * awaited before the next; a hook that throws ends the run with `error`. Within a step the phases
 * keep their order (`PHASES`); RunStart comes once first and RunEnd once last in every
 * activation that ends the run or leaves it waiting. Hooks run again in every activation: state a
 * plugin must carry from one activation to the next belongs in persistent state keys.
 */
export interface PluginHooks {
  /** Once per activation, first; `resumed` says whether it continues the run (see {@link RunStartContext}). */
  runStart?(context: RunStartContext): Awaitable<void>;
  /**
   * At the start of each new step, after its `step_start` event; `context.step` is the new step's
   * number. Not run again when an activation reopens a step its run stopped in (a suspension).
   */
  stepStart?(context: HookContext): Awaitable<void>;
  /** Before each model call: may edit the request or skip the call (see {@link BeforeInferenceContext}). */
  beforeInference?(context: BeforeInferenceContext): Awaitable<void>;
  /**
   * After each completed model call, before the assistant turn is committed: may replace the tool
   * calls or end the run (see {@link AfterInferenceContext}).
   */
  afterInference?(context: AfterInferenceContext): Awaitable<void>;
  /**
   * Pure judgement for one call: must not cause side effects, because it is re-evaluated (after
   * earlier calls of the batch committed, and again when the call is replayed after a decision).
   * Among one agent's plugins the first non-`allow` decision wins; `undefined` means allow. In a
   * child run, the inheritable plugins of each ancestor (see {@link Plugin.inheritable}) judge as one
   * more level, and across levels the strictest decision wins (`block` > `cancel` > `suspend` >
   * `set_result` > `allow`, the topmost level first among equals): a child can tighten its parent's
   * rules, never loosen them.
   */
  toolGate?(context: ToolGateContext): Awaitable<ToolGateDecision | undefined>;
  /** Runs exactly once for each call that really executes, right before its body. */
  beforeToolExecute?(context: BeforeToolExecuteContext): Awaitable<void>;
  /**
   * Each time a call reaches an outcome — executed or not, suspended included — with its result and
   * status (see {@link AfterToolExecuteContext}).
   */
  afterToolExecute?(context: AfterToolExecuteContext): Awaitable<void>;
  /** Once per step, after its tool round and before the stop conditions; may stop the run. */
  stepEnd?(context: StepEndContext): Awaitable<void>;
  /**
   * Last, on every exit path of an activation that ends the run or leaves it waiting; state set here
   * is stored with the terminal checkpoint (see {@link RunEndContext}).
   */
  runEnd?(context: RunEndContext): Awaitable<void>;
}

/** An extension of the run loop. Built-in extensions use exactly this interface. */
export interface Plugin {
  /**
   * Names the plugin in errors (e.g. an undeclared state key). Unique per agent: an agent that lists
   * two plugins with one id is `invalid_config` when the runtime is created.
   */
  id: string;
  /**
   * State keys the plugin reads and writes; persistent ones are checkpointed. A hook's
   * `context.state` reaches only these: any other key (also one another plugin declares) throws
   * `AwakenError('invalid_config')` naming the key and the plugin, so nothing a plugin keeps can be
   * silently lost at a suspension.
   */
  stateKeys?: readonly StateKey<any>[];
  /**
   * `true`: the plugin also governs the child runs its agent starts (sub-agents, `agentTool`), and
   * theirs, at any depth. A child's activation installs its ancestors' inheritable plugins (resolved
   * from the child record's `agentPath`, top first, each object once) ahead of its own, in every
   * phase; their ToolGate decisions combine strictest-wins with the child's own (see
   * `PluginHooks.toolGate`). An inherited plugin keeps its state keys in the child run and thread; a
   * key the child's own plugin declares too is the same slot. Default `false`.
   */
  inheritable?: boolean;
  /**
   * What the plugin's behaviour is configured with, as JSON (the permission plugin: its rules and
   * default). Part of the agent definition a run is pinned to (`RunRecord.agentPin`, field `rules`):
   * a change of it while a run waits is reported as drift on resume. Functions are ignored.
   */
  definition?: unknown;
  /** The plugin's hooks; `this` inside a hook is this object. */
  hooks: PluginHooks;
}
