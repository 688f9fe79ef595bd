import type {
  AgentDrift,
  ForkOrigin,
  AgentEvent,
  AwakenStores,
  ClientTool,
  DecisionReceipt,
  ModelExecutor,
  RunDispatch,
  RunRecord,
  RunContext,
  RunEventLog,
  RunRequestOrigin,
  RunWaitingTicket,
  ToolCallDecisionInput,
  UserMessage,
} from '@awaken/contract';
import type { AgentDefinition, AgentRuntime, RunStateSnapshot } from '@awaken/runtime';
import type { NotificationOutbox } from './notifications/create-notification-outbox';

/**
 * The four stores a service runs on — the store bundle `createMemoryStores()` and
 * `createRedisStores(...)` return; every process of a deployment shares the same ones.
 */
export type ServiceStores = AwakenStores;

/** Retry timing of transient failures: exponential backoff with jitter. */
export interface RetryPolicy {
  /** Delay before the first retry; doubled for each further attempt. Default 1000 ms. */
  baseDelayMs?: number;
  /** Upper bound of one delay (before jitter). Default 60 000 ms. */
  maxDelayMs?: number;
  /** Share of the delay drawn at random: delay × (1 − jitter × random). Default 0.5. */
  jitter?: number;
}

/**
 * Options of `createMailboxService`: the agents it runs, its stores, and the timing of claims, leases,
 * sweeps and retries. Every process of a deployment passes the same stores; a bad value is refused
 * with `invalid_config` naming the field.
 */
export interface MailboxServiceOptions {
  agents: AgentDefinition[];
  /** Default model of agents without one. */
  model?: ModelExecutor;
  /** Default: memory stores (one process, nothing survives it). */
  stores?: ServiceStores;
  /** This process's name on claims. Default `<hostname>:<pid>:<random>`. */
  workerId?: string;
  /** Background activations this process runs at once. 0: this process only serves its callers. Default 4. */
  concurrency?: number;
  /** Lease of a claimed dispatch, on the store's clock. Default 30 000 ms. */
  leaseMs?: number;
  /** How often a running activation extends its lease. Default leaseMs / 3. */
  heartbeatMs?: number;
  /** How often expired leases are swept. Default leaseMs / 2. */
  sweepIntervalMs?: number;
  /** Longest idle wait for work; delayed retries fall due within it. Default 1000 ms. */
  idleWaitMs?: number;
  /**
   * Deliveries of one dispatch before it is dead-lettered: crashes (expired leases) and transient
   * failures both count. Default 5.
   */
  maxAttempts?: number;
  retry?: RetryPolicy;
  /** Recently suspended runs kept in memory for a fast resume here. Default 256; 0 disables. */
  hotCacheSize?: number;
  /** Random source of the retry jitter (tests). Default `Math.random`. */
  random?: () => number;
  createId?: () => string;
  /** Passed to the runtime (diagnostics, tests). */
  onStateChange?: (snapshot: RunStateSnapshot) => void;
  /**
   * Told of every event the activations this process executes yield, in order, once it is in the
   * run's event log (e.g. `createApprovalWaitMeter().observe`). It runs on the event path: keep it
   * quick; a throw is reported to `onError` and changes nothing.
   */
  observeEvents?: (batch: { runId: string; events: readonly AgentEvent[]; eventLog: RunEventLog }) => void;
  /**
   * What happens to a waiting run whose agent is now defined differently than when it started (a
   * deploy while it waited; see the run's `agentPin`): `continue` (default) resumes it under the new
   * definition; `refuse` rejects decisions for it with `conflict` (409) naming what changed, and a
   * resume of it fails the same way (the run stays waiting).
   */
  onAgentChange?: 'continue' | 'refuse';
  /** Called with failures the service handled on its own (a lost lease, a failed sweep). */
  onError?: (error: unknown, context: string) => void;
  /**
   * Where notifications of settled runs go (`createNotificationOutbox`): each activation's
   * notifications are enqueued there before its dispatch is acknowledged, so a crash in between
   * redelivers the dispatch and enqueues them again (idempotently), and none is lost.
   */
  notifications?: NotificationOutbox;
}

/** When a new run arrives on a thread that already has work. */
export type IfBusy = 'interrupt' | 'queue' | 'conflict';

/** A new run for `submit`: its agent and input, where it goes (thread, run id) and how it is run. */
export interface SubmitRequest {
  agentId: string;
  /** JSON about the caller (identity, tenant, request metadata): stored on the run, seen by every hook. */
  context?: RunContext;
  /** Tools the client executes: their calls wait for the client's output as a decision. */
  tools?: ClientTool[];
  /** Created when missing. */
  threadId?: string;
  runId?: string;
  /** The new user input: required, except for a fork (`forkOf`), which continues its branch as it is. */
  input?: string | UserMessage[];
  /**
   * Starts a fork (`POST /v1/runs/:id/fork`): what `runtime.planFork` returned, with `threadId` the
   * branch made at `forkOf.atSeq`. Stored on the run (`RunRecord.forkOf`).
   */
  forkOf?: ForkOrigin;
  /**
   * `foreground` (default): this process claims the dispatch at once and executes it (a streaming
   * caller waits for no worker). `background`: stored and queued for any worker.
   */
  mode?: 'foreground' | 'background';
  /**
   * `interrupt` (foreground default): latest wins — queued work of the thread is superseded and the
   * active run cancelled. `queue` (background default): runs after the thread's current work.
   * `conflict`: refused with `conflict` when the thread has queued or active work.
   */
  ifBusy?: IfBusy;
  /** 0 = highest, 255 = lowest. Default 128. */
  priority?: number;
  origin?: RunRequestOrigin;
}

/** Where a reader of a run's event log starts, and how it stops early. */
export interface FollowOptions {
  /** Only events after this seq. Default 0. */
  afterSeq?: number;
  signal?: AbortSignal;
}

/** A run the service accepted: durable before `submit` resolved. */
export interface SubmittedRun {
  runId: string;
  threadId: string;
  dispatchId: string;
  /** Events of the run from its event log, until its next `run_finish` (it waits or is done). */
  events(options?: FollowOptions): AsyncIterable<AgentEvent>;
  /** Resolves with the stored run once an activation after `afterSeq` left it waiting, or it is done. */
  settled(options?: FollowOptions): Promise<RunRecord>;
  /** Resolves with the stored run once it is done (however many times it waits before). */
  done(options?: FollowOptions): Promise<RunRecord>;
}

/** What `getActiveRun` reports about a thread's current run. */
export interface ActiveRunView {
  runId: string;
  threadId: string;
  /** `active`: executing or about to; `open`: waiting for a decision or input. */
  kind: 'active' | 'open';
  record: RunRecord;
  tickets: RunWaitingTicket[];
}

/** Addresses a run directly or through its thread (its open run, else its active run). */
export type RunTarget = { runId: string } | { threadId: string };

/** What `decide` did: one receipt per decision, in the order given, and the resume it enqueued. */
export interface DecideResult {
  runId: string;
  receipts: DecisionReceipt[];
  /** The resume dispatch that will apply the decisions, when the run was waiting. */
  resumeDispatchId?: string;
}

/** What `interruptThread` did: the thread's new dispatch epoch and the work it superseded. */
export interface InterruptResult {
  threadId: string;
  newDispatchEpoch: number;
  supersededCount: number;
  /** The run that was executing and is being cancelled, if any. */
  cancelledRunId?: string;
}

/**
 * How injected user input reaches a thread: `queue` as its next run; `steer` the active run (read at
 * its next step); `interrupt` the thread, then run the input; `resume` the open waiting run with it.
 */
export type InjectMode = 'queue' | 'steer' | 'interrupt' | 'resume';

/** User input for `injectUserInput`: the thread it goes to, and how it reaches it (`mode`). */
export interface InjectRequest {
  threadId: string;
  input: string | UserMessage[];
  mode: InjectMode;
  /** The agent of a new run (`queue`, `interrupt`); default the agent of the thread's latest run. */
  agentId?: string;
  /**
   * Who sends the input (`caller`: the HTTP routes set it from the bearer token). It is the context
   * of the run the input starts (`queue`, `interrupt`: its sender is that run's starter), or travels
   * with the input into the run it steers or resumes (`steer`, `resume`), whose sender becomes an
   * asker of what follows: a four-eyes ticket refuses their approval (`runAskersOf`).
   */
  context?: RunContext;
}

/** Where injected input went: the run that takes it, and the dispatch that will execute it, if one was enqueued. */
export interface InjectResult {
  mode: InjectMode;
  runId: string;
  dispatchId?: string;
}

/**
 * How `decide` may skip work a door already did: `prejudged` names the decisions the shared answer
 * rules (`judgeAnswers`) accepted on the stored run at `version`; while the run still stands at that
 * version they are not judged again (every later check still runs).
 */
export interface DecideOptions {
  prejudged?: { version: number; decisionIds: ReadonlySet<string> };
}

/**
 * The run commands — what a caller asks of a run or thread, usable without HTTP (the service's
 * `control`). A command that must reach a run executing elsewhere travels through the run's inbox.
 */
export interface RunCommands {
  /** The thread's executing run, else its waiting run (with its tickets), else `null`. */
  getActiveRun(threadId: string): Promise<ActiveRunView | null>;
  /**
   * Delivers decisions to a run (or a thread's open, else active, run): one receipt each, written to
   * the run's inbox first; a waiting run gets one resume dispatch however many decisions arrive.
   */
  decide(
    target: RunTarget,
    decisions: ToolCallDecisionInput | ToolCallDecisionInput[],
    options?: DecideOptions,
  ): Promise<DecideResult>;
  /** Ends the run `cancelled` wherever it executes; resolves with the stored run. Idempotent. */
  cancelRun(runId: string, reason?: string): Promise<RunRecord>;
  /** Latest wins: supersedes the thread's queued work and cancels its executing and waiting runs. */
  interruptThread(threadId: string, reason?: string): Promise<InterruptResult>;
  /** Sends user input to a thread as its next run, to its executing run, or to its waiting run (`mode`). */
  injectUserInput(request: InjectRequest): Promise<InjectResult>;
}

/** @deprecated Renamed `RunCommands` ("run control" names the run's inbox); this alias stays for now. */
export type RunControlService = RunCommands;

/** A snapshot of this process's part of the service (not the deployment's). */
export interface ServiceStats {
  workerId: string;
  /** Activations executing in this process. */
  active: number;
  /** Runs in the hot cache. */
  hotRuns: number;
  /** Resumes that used this process's cached copy. */
  hotResumes: number;
  /** Cached copies found stale (another process moved the run on) and dropped for a cold resume. */
  staleCopies: number;
}

/**
 * The mailbox service of one process (`createMailboxService`): submit runs, follow their events, run
 * commands on them, and — once started — execute dispatches claimed from the stores every process
 * of the deployment shares.
 */
/** The run a dead letter was requeued as. */
export interface RequeuedRun {
  runId: string;
  threadId: string;
  dispatchId: string;
  /** The dead letter's dispatch id. */
  requeuedFrom: string;
}

export interface MailboxService {
  /** This process's name on the claims it takes. */
  readonly workerId: string;
  /** The ids of the agents this service runs, in the order they were given. */
  readonly agentIds: readonly string[];
  /** The agent runtime the service executes runs with (reading runs through its hot cache). */
  readonly runtime: AgentRuntime;
  /** The stores as given (or the memory stores it created). */
  readonly stores: ServiceStores;
  /** The run commands: decide, cancel, interrupt, inject input, look up a thread's active run. */
  readonly commands: RunCommands;
  /** @deprecated Renamed `commands` ("run control" names the run's inbox); the same object. */
  readonly control: RunCommands;
  /** Recovers expired leases, then starts the workers and the lease sweep. */
  start(): Promise<void>;
  /** Write-ahead submit: the run is stored and queued before this resolves. */
  submit(request: SubmitRequest): Promise<SubmittedRun>;
  /** Follows a run's events (any process's run) from its event log. */
  follow(runId: string, options?: FollowOptions): AsyncIterable<AgentEvent>;
  /**
   * The same events as `follow`, a page at a time: every event that became available together (a
   * burst the run executing here yielded, a page of the log) in one array, so a writer sends one
   * chunk per page, not one per event. Optional: the HTTP layer falls back to reading the log.
   */
  followPages?(runId: string, options?: FollowOptions): AsyncIterable<AgentEvent[]>;
  /** Loads a dispatch (inspection). */
  dispatch(dispatchId: string): Promise<RunDispatch | null>;
  /**
   * Requeues a dead letter as a new background run of the same agent, thread and input. Once: every
   * later (or concurrent) requeue of the same dead letter answers the same run. `context` replaces the
   * stored run's context on the new run. `not_found`, or `conflict` for a dispatch that is not a dead
   * letter or a thread whose waiting run is in the way.
   */
  requeueDeadLetter(dispatchId: string, options?: { context?: RunContext }): Promise<RequeuedRun>;
  /**
   * Stops claiming and lets running activations reach their end within `graceMs` (default 10 000);
   * then detaches the rest — each stops at its next safe point (work under way, such as a running
   * tool, finishes and is checkpointed first) without ending its run, and its dispatch is handed back
   * so another process continues the run — and resolves once they stopped. With `force` (a second
   * signal) it detaches at once and does not wait.
   */
  stop(options?: { graceMs?: number; force?: boolean }): Promise<void>;
  /** What this process executes and caches now. */
  stats(): ServiceStats;
  /**
   * How the agent that started `record` is defined now compared with the run's `agentPin`: the
   * changed fields (and tool names), or `undefined` when nothing changed, the run has no pin or the
   * agent is not served here.
   */
  agentDrift?(record: RunRecord): AgentDrift | undefined;
}
