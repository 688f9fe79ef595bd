import type {
  AgentEvent,
  AwakenStores,
  ClientTool,
  DecisionReceipt,
  DerivedRunStatus,
  ForkOrigin,
  InferenceOptions,
  ModelExecutor,
  Plugin,
  RunContext,
  RunLease,
  AcquiredWithFence,
  RunRecord,
  RunRequestOrigin,
  RunStatus,
  RunWaitingState,
  StopConditionSpec,
  TerminationReason,
  TokenUsage,
  Tool,
  ToolCallDecisionInput,
  ToolSet,
  ToolCallState,
  UserMessage,
} from '@awaken/contract';

/** One agent the runtime can run. Validated when the runtime is created. */
export interface AgentDefinition {
  /** The id a run request names (`agentId`); unique among the runtime's agents. */
  id: string;
  /** The system prompt every model call starts with (BeforeInference may change it per call). */
  systemPrompt?: string;
  /** Overrides the runtime's default model executor. */
  model?: ModelExecutor;
  /**
   * Awaken tools (`defineTool`), or a record keyed by tool name whose values are AI SDK tools
   * (`tool({ description, inputSchema, execute })`, AI SDK 5–7) or Awaken tools. Checked when the
   * runtime is created: a wrong shape is `invalid_config` naming the tool and the field.
   */
  tools?: Tool[] | ToolSet;
  /** Run in this order in every phase; plugin ids must be unique within the agent. */
  plugins?: Plugin[];
  /**
   * Evaluated at StepEnd in declared order; the first match stops the run. Without a `max_rounds`
   * condition, `max_rounds` of `DEFAULT_MAX_ROUNDS` (16) is added last, so a tool loop always ends.
   */
  stopConditions?: StopConditionSpec[];
  /** `sequential` (default) runs allowed calls one by one; `parallel` runs them at once (concurrent model). */
  toolExecution?: 'sequential' | 'parallel';
  /** Options every model call starts with (BeforeInference may change them per call). */
  inferenceOptions?: InferenceOptions;
  /**
   * The default time (ms) a ticket of this agent waits for an answer (a tool's or a permission
   * rule's `approvalTimeout` wins). Past it the call resolves as `expired`: it never runs, the model
   * is told, and a late answer is refused `ticket_expired`. Default: tickets never expire.
   */
  approvalTimeout?: number;
  /**
   * What an expired ticket does to the run: `continue` (default: the model reads that the approval
   * expired and the run goes on) or `end_run` (the run ends `stopped { code: 'approval_expired' }`).
   */
  onApprovalExpired?: 'continue' | 'end_run';
}

/** What happens when every remaining tool call of the step waits for a decision. */
export type OnSuspend = 'wait' | 'return';

/**
 * What a new run does when its thread has a waiting run: `refuse` (default) fails with `conflict`
 * naming the open run; `cancel` cancels the waiting run's calls (the model reads that new input
 * superseded them), then runs the new input.
 */
export type OnOpenRun = 'refuse' | 'cancel';

/**
 * What `run`, `runToCompletion` and `createRun` start. Its shape is checked before anything is
 * written: a malformed field is `validation_failed` naming it.
 */
export interface RunRequest {
  /** One of the runtime's agents; an unknown id is `invalid_config`. */
  agentId: string;
  /**
   * The thread the run belongs to: its history is what the model reads, and the run's messages are
   * appended to it. Created when missing (a generated id when not given).
   */
  threadId?: string;
  /**
   * The run's id (generated when not given). Ids are never reused: a request naming a run that
   * already exists is refused with `conflict`, so a request re-sent with its `runId` never starts a
   * second run.
   */
  runId?: string;
  /**
   * The new user input: a string is one user message. It is committed to the thread once, at the
   * run's first checkpoint (`user_message`). Without input the model answers the thread as it is (a
   * thread that already ends with a final answer returns it without a model call).
   */
  input?: string | UserMessage[];
  /**
   * Aborting it cancels the run as the handle's `cancel` does (the abort reason, when a string, is
   * the cancel reason): the model call and tools are aborted and the run ends `cancelled`.
   */
  signal?: AbortSignal;
  /** `return` (default): the activation ends with `run_finish(suspended)`; `wait`: the run stays live. */
  onSuspend?: OnSuspend;
  /** When the thread has a waiting run: `refuse` (default, `conflict`) or `cancel` it first. */
  onOpenRun?: OnOpenRun;
  /**
   * Tools the client executes (name, description, JSON Schema parameters), offered to the model next
   * to the agent's tools. A call to one suspends with a client-tool ticket (`isClientToolTicket`,
   * resume mode `use_decision_as_tool_result`); the client's output, sent as `answer(ticket, output)`,
   * becomes the result. Stored with the run.
   */
  tools?: ClientTool[];
  /**
   * The caller's context (identity, tenant, request metadata; a JSON object), stored on the run
   * record and shown to every hook and tool as `runContext`.
   */
  context?: RunContext;
  /** Where the request came from (`user` by default, `a2a`, `internal`); stored on the run record. */
  origin?: RunRequestOrigin;
  /**
   * Makes the run a fork (stored as `RunRecord.forkOf`): what `planFork` returns for the source run
   * and step, with `threadId` a branch of the source thread at `forkOf.atSeq` (`forkRun` does all
   * three). The run installs the fork's repeat guard and, when given, its instructions.
   */
  forkOf?: ForkOrigin;
  /**
   * A hint from a caller that has just read the thread and found none (the server's submit does):
   * `createRun` then writes the thread and the run side by side — one round trip where the store
   * sends same-tick writes together — instead of writing the run first and creating the thread only
   * after the store refuses it (`not_found`). Only a hint: a thread created meanwhile is used as it
   * is, and the guarantees are those of a request without it.
   */
  newThread?: boolean;
}

/**
 * What `forkRun` and `planFork` take. Malformed options are `validation_failed` naming the field.
 */
export interface ForkRunOptions {
  /**
   * The step of the source run to run again (1 to the run's `steps`): the fork starts with the
   * history the source had when that step began (its input, the model turns and tool results of the
   * steps before it, reused as recorded) and calls the model for that step afresh.
   */
  atStep: number;
  /** The agent the fork runs (default: the agent that ran that step, after any handoff before it). */
  agentId?: string;
  /** A system prompt replacing that agent's own for the fork (the "what if" of a debugger). */
  instructions?: string;
}

/** A fork about to start: the agent it runs and where it comes from (`RunRequest.forkOf`). */
export interface ForkPlan {
  agentId: string;
  forkOf: ForkOrigin;
}

/** What `forkRun` takes: {@link ForkRunOptions}, the new run's id and how it runs. */
export interface ForkRunRequest extends ForkRunOptions {
  /** The fork's run id (generated when not given; a taken id is `conflict`). */
  runId?: string;
  /** The id of the branch thread the fork runs on (generated when not given; a taken id is `conflict`). */
  threadId?: string;
  signal?: AbortSignal;
  onSuspend?: OnSuspend;
  context?: RunContext;
}

/**
 * What resuming a run does when the agent that started it is now defined differently than the run's
 * `agentPin` records (a deploy while it waited): `continue` (default: the run goes on under the new
 * definition — the drift stays visible by comparing the pin, see `agentPinOf`) or `refuse`: the
 * resume fails with `conflict` naming the changed fields (details `drift`), nothing is applied and
 * the run stays as it was.
 */
export type OnAgentChange = 'continue' | 'refuse';

/** How `resumeRun` continues a run; malformed options are `validation_failed` naming the field. */
export interface ResumeRunOptions {
  /**
   * Decisions to apply as the run continues, each addressed by tool call id or ticket id (see
   * `approve`/`deny`/`answer` in the contract). Each gets a receipt in the handle's `receipts`: one
   * the run already applied (same `decisionId`) is `duplicate`; one for a finished run is rejected
   * (`run_finished`); a malformed or stale one is rejected with its reason, never applied to another
   * call.
   */
  decisions?: ToolCallDecisionInput[];
  /** Aborting it cancels the run, as {@link RunRequest.signal}. */
  signal?: AbortSignal;
  /** As {@link RunRequest.onSuspend}: `return` (default) or `wait`. */
  onSuspend?: OnSuspend;
  /**
   * A lease of this run the caller already holds (from `store.acquireRun`, e.g. under its mailbox
   * claim). The activation writes under its fence and neither renews nor releases it: the caller
   * does. Without it the runtime acquires, renews and releases its own lease.
   */
  lease?: RunLease;
  /**
   * The reply of the caller's joint acquisition (`AcquireWithFence`) that granted `lease` (the same
   * lease; without `lease`, its lease is the one handed in): the run record it read under the lease
   * and the event log's seq it raised the log's fence at stand in for the activation's own read of
   * the run and its `raiseFence` (two round trips fewer). Only for the first activation after that
   * acquisition: a later one under the same lease must read the run again.
   */
  acquired?: AcquiredWithFence;
  /** When the run's agent changed since it started; overrides the runtime's `onAgentChange`. */
  onAgentChange?: OnAgentChange;
}

/**
 * How an activation left its run, as the store holds it: `result` resolves only once this outcome
 * is stored (its terminal checkpoint written); no result reports an outcome the store does not hold.
 */
export interface RunResult {
  runId: string;
  threadId: string;
  /** `waiting` when the run is suspended (resumable), `done` otherwise. */
  status: RunStatus;
  /** Why the activation ended (`suspended` for a waiting run). */
  termination: TerminationReason;
  /** The final assistant text (natural end), or the last assistant text otherwise. */
  response?: string;
  /** Token usage of the whole run, over all its activations. */
  usage: TokenUsage;
  /** The steps the run has started, over all its activations. */
  steps: number;
  /** What a waiting run waits for: its open tickets, each with its ticket and tool call id. */
  waiting?: RunWaitingState;
}

/**
 * A live run. `events` (and the handle itself) can be iterated once; events are buffered, so a late
 * reader misses nothing. `result` settles when the activation ends (with `onSuspend: 'wait'`, when the
 * run is done).
 */
export interface RunHandle extends AsyncIterable<AgentEvent> {
  readonly runId: string;
  /** Known at once for `run`; for `resumeRun`, `''` until the run is loaded. */
  readonly threadId: string;
  /**
   * The activation's events in `seq` order, each appended to `stores.eventLog` (when there is one)
   * before it is yielded. A second iteration throws. When the activation fails, iteration throws
   * the error `result` rejects with. Not reading does not hold the run back.
   */
  readonly events: AsyncIterable<AgentEvent>;
  /**
   * The outcome, once it is stored (with `onSuspend: 'wait'`, once the run is done). Rejects when
   * the activation could not start (`conflict`, `not_found`, `run_busy` while another activation
   * holds the run) or stored no outcome: `detached` (detach, shutdown, a lost lease), the retryable
   * model failure with `transientModelErrors: 'interrupt'`, the store's error when the terminal
   * checkpoint failed. The run then stays at its last checkpoint, and `resumeRun` continues it.
   */
  readonly result: Promise<RunResult>;
  /**
   * Validates decisions against the run's current state and queues the accepted ones for the next
   * RESUME gate (at once for the parallel executor's concurrent model). A decision names its call by
   * tool call id or by ticket id (build it with `approve`, `deny` or `answer` from the contract); the
   * receipt names the call. Never applies a decision to a call other than the one it names, nor to a
   * later call that reuses the id once the ticket it answered is gone.
   */
  decide(decisions: ToolCallDecisionInput | ToolCallDecisionInput[]): Promise<DecisionReceipt[]>;
  /** Receipts of the decisions passed to `resumeRun`, once they were validated. */
  readonly receipts: Promise<DecisionReceipt[]>;
  /** Cancels the run: the model call and tools are aborted; the run ends `cancelled`. */
  cancel(reason?: string): void;
  /**
   * Stops this activation at its next safe point (before the next model call, tool execution or
   * decision) without writing a terminal state, and gives the run up: `result` rejects with
   * `detached`, and any process can continue the run with `resumeRun`. Work already under way (a
   * model call, running tools) finishes and is checkpointed first.
   */
  detach(reason?: string): void;
}

/**
 * What `AgentRuntime.decide` did with the decisions it was given. `delivery` says where they went:
 * - `live`: an activation of this runtime took them (as its handle's `decide`);
 * - `resumed`: the run was free, so this call started its activation here (`handle`), which took them
 *   (or, when they were queued just as the run was let go, reads them from the inbox at its gate);
 * - `queued`: another process holds the run: each accepted decision was checked against the run as
 *   stored and is durably in the run's control inbox; the owner applies it at its next gate — a parked
 *   run at once. One that no longer matches there (another decision for the call got there first) is
 *   dropped with a `decision_rejected` error event on the run, never applied to another call;
 * - `finished`: the run is done; every receipt is `rejected` (`run_finished`).
 */
export interface DecideResult {
  runId: string;
  delivery: 'live' | 'resumed' | 'queued' | 'finished';
  /**
   * One receipt per decision: `accepted` (durably recorded for the run),
   * `duplicate` (its `decisionId` was already accepted or applied) or `rejected` with a reason.
   */
  receipts: DecisionReceipt[];
  /** The activation this call started (`delivery: 'resumed'`). */
  handle?: RunHandle;
}

/** Why `failRun` ends a run: the `message` and optional `code` of its `error` termination. */
export interface RunFailure {
  message: string;
  code?: string;
}

/** A tool call state change, reported to `onStateChange` (diagnostics and tests). */
export interface RunStateSnapshot {
  runId: string;
  status: RunStatus;
  derived: DerivedRunStatus;
  calls: ToolCallState[];
}

/**
 * The stores a runtime uses: the contract's `AwakenStores` bundle as `createMemoryStores()` or
 * `createRedisStores(...)` return it, or just the parts the runtime needs. `threadRuns` is required;
 * with `eventLog`, every event is appended before it is yielded; with `inbox` (the run-control inbox
 * shared by every process serving these runs), decisions, cancel and user input from any process
 * reach a live run. Without an inbox a run live in another process cannot be reached: decisions
 * must come with `resumeRun` once it is free, and `cancelRun` waits for its lease. The runtime does
 * not use `mailbox` (the server does).
 */
export type RuntimeStores = Pick<AwakenStores, 'threadRuns'> & Partial<Omit<AwakenStores, 'threadRuns'>>;

/** What `createAgentRuntime` takes; checked when it is called (`invalid_config` naming the problem). */
export interface AgentRuntimeOptions {
  /** The agents this runtime runs; ids must be unique. Every process serving a run needs its agent. */
  agents: AgentDefinition[];
  /** Shared by every process serving the same runs; see {@link RuntimeStores}. */
  stores: RuntimeStores;
  /** Default model for agents without one. */
  model?: ModelExecutor;
  /** The lease an activation holds on its run (default 30 s, renewed every third of it). */
  runLease?: { leaseMs?: number };
  /** How long `cancelRun` waits for a run held by another process to end (default 30 s). */
  cancelWaitMs?: number;
  /**
   * Non-persistent thread-scoped plugin state lives only in this runtime's memory, shared by the
   * runs of a thread here. Once a thread's runs ended, it is kept for at most this many threads,
   * the most recently used (default 1000; 0 keeps none); an older thread's next run starts from the
   * keys' initial values. Persistent keys are always restored from the store.
   */
  threadMemoryLimit?: number;
  /**
   * The runtime's clock in ms (default `Date.now`): record timestamps and the `timeout` stop
   * condition. Leases are timed by the store's clock, not this one.
   */
  now?: () => number;
  /** Makes the ids the runtime generates — runs, threads, … (default `crypto.randomUUID`). */
  createId?: () => string;
  /** Called synchronously after every tool call state change of the current batch. */
  onStateChange?: (snapshot: RunStateSnapshot) => void;
  /**
   * What a `model_transient` failure of the model executor does (rate limit, overload, timeout,
   * network, 5xx). `end_run` (default): the run ends with `error`. `interrupt`: the activation stops
   * like a crash — no RunEnd, no terminal checkpoint, an `error` event, `result` rejects with the
   * retryable AwakenError — and the run stays `running` at its last checkpoint, so a later `resumeRun`
   * (e.g. a mailbox retry after backoff) calls the model again without repeating committed work.
   */
  transientModelErrors?: 'end_run' | 'interrupt';
  /**
   * What a retryable `store_failure` during an activation does (a store outage, a connection that
   * cannot be had). `end_run` (default, for a runtime used alone: the caller learns at once that the
   * run could not continue): the run ends with `error` when the terminal checkpoint can still be
   * written. `interrupt`: the activation stops like a crash, as `transientModelErrors: 'interrupt'`
   * does — an `error` event, `result` rejects with the retryable error — and the run stays at its last
   * checkpoint, so a later `resumeRun` (the mailbox service's retry after backoff, which sets this)
   * continues it without repeating committed work. A `stale_claim` (the run was taken over) always
   * detaches, whatever this says.
   */
  transientStoreErrors?: 'end_run' | 'interrupt';
  /**
   * What `resumeRun` does with a run whose agent is now defined differently than when it started
   * (`RunRecord.agentPin`): `continue` (default) or `refuse` (`conflict` naming what changed). See
   * {@link OnAgentChange}.
   */
  onAgentChange?: OnAgentChange;
}

/**
 * Runs agents durably. Every method works on any run in the stores, wherever it was started: what
 * one process begins, any process sharing the stores can continue, decide, cancel or fail. Malformed
 * arguments are `validation_failed` naming the field, before anything is written.
 */
export interface AgentRuntime {
  /**
   * Starts a new run and returns its handle at once. A malformed request throws (`validation_failed`,
   * or `invalid_config` for an unknown agent); what is found once the stores are read rejects
   * `result` with `conflict`: the thread has a waiting run (see `onOpenRun`; nothing is written), or
   * the run id is taken.
   */
  run(request: RunRequest): RunHandle;
  /**
   * `run(request).result`: resolves with the outcome once it is stored (`waiting` with
   * `onSuspend: 'return'`, the default). With `onSuspend: 'wait'` it needs `stores.inbox` (the only
   * way a decision can reach a run whose handle nobody holds): without one it rejects with
   * `validation_failed` instead of never settling.
   */
  runToCompletion(request: RunRequest): Promise<RunResult>;
  /**
   * Stores a new run without executing it (write-ahead): the thread is created when missing, the run
   * record is stored with status `created` and the input kept in it until its first activation —
   * `resumeRun(runId)`, in any process sharing the store — commits it to the thread. Its first
   * activation opens with `run_start { resumed: false }`. `signal` and `onSuspend` are ignored.
   */
  createRun(request: RunRequest): Promise<RunRecord>;
  /**
   * Plans a fork of a stored run at one of its steps, reading only (see {@link ForkRunOptions}): the
   * seq of the source thread its branch ends at and the non-idempotent calls the source ran from that
   * step on, which the fork asks about before running any of those tools again (`fork_repeat`
   * tickets). `not_found` for an unknown run; `validation_failed` for a step it never started, a
   * sub-agent's child run, an unknown agent or malformed options.
   */
  planFork(sourceRunId: string, options: ForkRunOptions): Promise<ForkPlan>;
  /**
   * Forks a stored run at one of its steps and runs the fork: `planFork`, then a branch of the source
   * thread at the fork point (by reference: the source stays as it is), then `run` on it with no new
   * input. Nothing recorded before the fork step runs again; the model is called for that step and
   * what follows runs live, except that a non-idempotent tool the source already ran after the fork
   * point asks a human first. Needs a store that offers branches (`invalid_config` otherwise).
   */
  forkRun(sourceRunId: string, request: ForkRunRequest): Promise<RunHandle>;
  /**
   * Continues a waiting or interrupted run from the store alone, in any process: committed tool
   * results are never executed again, and the model is called only when the history ends with a user
   * message or tool results.
   * A finished run returns its stored result (no model call, no events); decisions given for it are
   * rejected (`run_finished`) or `duplicate`. The activation first takes the run's lease: while
   * another activation (in any process) holds it, `result` and `receipts` reject with `run_busy` and
   * nothing happens (in this runtime the call throws `run_busy` at once). An unknown run rejects with
   * `not_found`.
   */
  resumeRun(runId: string, options?: ResumeRunOptions): RunHandle;
  /**
   * Cancels a run and resolves with what the store holds once it is done: a live one through its
   * signal, one live in another process through the control inbox (its owner ends it), a waiting or
   * interrupted one by a cold activation. Rejects — never reports `cancelled` — when the cancellation
   * could not be stored (`run_busy` once `cancelWaitMs` passed with the run still held elsewhere); the
   * cancel command it queued is then withdrawn, so it does not take effect later (unless the holder
   * had already read it, in which case the run is being cancelled). A run already done resolves with
   * its stored result, so calling it again is harmless; an unknown run rejects with `not_found`.
   */
  cancelRun(runId: string, reason?: string): Promise<RunResult>;
  /**
   * Ends a run that will not be continued (a server gave up on it: retries exhausted, a permanent
   * failure) with the `error` termination `{ type: 'error', message, code }` — not `cancelled`, which
   * says a caller stopped it. The run ends as any failing run does: its open tool calls are
   * cancelled, the terminal checkpoint is written under the run's lease (fenced), the log gets an
   * `error` event and a `run_finish` saying `error`, and is closed. A run live in this runtime is
   * aborted; one nobody holds is ended by a cold activation; one held by another process is left
   * untouched (`run_busy`, nothing queued). A run already done resolves with its stored result.
   * `validation_failed` (naming the field) for an empty message or a non-string code.
   */
  failRun(runId: string, failure: RunFailure): Promise<RunResult>;
  /**
   * Delivers decisions to a run wherever it is, given only its id (what a server that received a
   * user's click knows): to its activation in this runtime, by resuming it here when no activation
   * holds it, or — held by another process — through the run's control inbox (needs `stores.inbox`;
   * without one that is `run_busy`, nothing written). Each decision gets a receipt; see
   * {@link DecideResult}. `not_found` when there is no such run.
   */
  decide(runId: string, decisions: ToolCallDecisionInput | ToolCallDecisionInput[]): Promise<DecideResult>;
  /**
   * Detaches every live activation of this runtime (process shutdown) and resolves once they stopped
   * and released their leases: each stops at its next safe point without a terminal state, its work
   * under way checkpointed, and any process continues the run with `resumeRun`.
   */
  shutdown(): Promise<void>;
}
