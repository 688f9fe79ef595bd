import {
  type AgentEvent,
  type AgentEventInput,
  AwakenError,
  type Message,
  type NewMessage,
  type RunContext,
  type RunControlInbox,
  type RunEventLog,
  type RunRecord,
  type RunStatus,
  type TerminationReason,
  type ThreadRunStore,
  type ToolCallDecision,
  type ToolCallState,
  deriveRunStatus,
  transitionRunStatus,
} from '@awaken/contract';
import type { RunStateSnapshot } from '../types';
import type { EventChannel } from './event-channel';
import type { ResolvedAgent } from './resolve-agents';
import { type StoredClientTool, clientToolsOf } from './run-request';
import type { RuntimeBookkeeping } from './run-state';
import type { WakeSignal } from './wake-signal';

/** Everything a session needs from its runtime. */
export interface RuntimeServices {
  store: ThreadRunStore;
  eventLog?: RunEventLog;
  inbox?: RunControlInbox;
  /** The lease an activation takes on its run, and how often it is renewed. */
  lease: { leaseMs: number; renewEveryMs: number };
  now: () => number;
  createId: () => string;
  onStateChange?: (snapshot: RunStateSnapshot) => void;
  transientModelErrors: 'end_run' | 'interrupt';
  /** Non-persistent thread-scoped plugin state, shared by the runs of a thread in this process. */
  threadMemory: Map<string, Map<string, unknown>>;
}

export interface RunSessionInit {
  services: RuntimeServices;
  agent: ResolvedAgent;
  record: RunRecord;
  messages: Message[];
  calls: Map<string, ToolCallState>;
  pendingDecisions: ToolCallDecision[];
  bookkeeping: RuntimeBookkeeping;
  threadState: Record<string, unknown>;
  channel: EventChannel<AgentEvent>;
  wake: WakeSignal;
  runController: AbortController;
  /** The fence every write of this session carries. */
  fence: number;
}

/** Why an activation stopped without ending its run. */
export type HaltReason = 'detach' | 'lease_lost';

/**
 * The in-memory state of one run in this process: the last stored record, the history the model
 * sees, tool call states, the decision queue and the event sequence. Owns the run's abort controller.
 */
export class RunSession {
  readonly services: RuntimeServices;
  readonly agent: ResolvedAgent;
  record: RunRecord;
  status: RunStatus;
  readonly messages: Message[];
  /** Thread messages already stored. */
  committedCount: number;
  pending: NewMessage[] = [];
  readonly calls: Map<string, ToolCallState>;
  queue: ToolCallDecision[];
  readonly bookkeeping: RuntimeBookkeeping;
  readonly decisionIds: Set<string>;
  readonly runState = new Map<string, unknown>();
  readonly threadState: Map<string, unknown>;
  readonly storedThreadState: Record<string, unknown>;
  readonly channel: EventChannel<AgentEvent>;
  readonly wake: WakeSignal;
  readonly runController: AbortController;
  /** Aborted when the lease is lost: tools and the model call stop at once. */
  readonly haltController = new AbortController();
  /** Set once the activation must stop without a terminal state (detach, lease lost). */
  halt: AwakenError | undefined;
  /** True once the run's lease was taken over: nothing may be written any more. */
  lost = false;
  readonly fence: number;
  /** Ids of cancel commands read from the control inbox, recorded by the terminal checkpoint. */
  readonly cancelIds = new Set<string>();
  /** Appends to the event log, one after the other, so seq numbers stay dense. */
  emitting: Promise<void> = Promise.resolve();
  /** The signal of the current activation: run cancellation, lease loss and the timeout deadline. */
  signal: AbortSignal;
  deadlineFired = false;
  activationStartedAt = 0;
  /** Set by a ToolGate `block` without `continueRun`. */
  blocked: string | undefined;
  /** The current batch (calls of the last assistant turn). */
  batch: ToolCallState[] = [];
  live = true;
  /** JSON of the last `state_snapshot` of this activation; undefined before the first check. */
  lastStateSnapshot: string | undefined;
  /** The step whose `step_start` this activation emitted and whose `step_end` it has not (framing). */
  openStep: number | undefined;
  /** The client tools the run request declared, by name. */
  readonly clientTools: Map<string, StoredClientTool>;
  /** The run request's context, as every hook and tool sees it. */
  readonly runContext: Readonly<RunContext>;

  constructor(init: RunSessionInit) {
    this.services = init.services;
    this.agent = init.agent;
    this.record = init.record;
    this.status = init.record.status;
    this.messages = init.messages;
    this.committedCount = init.messages.length;
    this.calls = init.calls;
    this.queue = init.pendingDecisions;
    this.bookkeeping = init.bookkeeping;
    this.decisionIds = new Set(init.bookkeeping.decisionIds);
    this.storedThreadState = init.threadState;
    let memory = init.services.threadMemory.get(init.record.threadId);
    if (!memory) {
      memory = new Map();
      init.services.threadMemory.set(init.record.threadId, memory);
    }
    this.threadState = memory;
    this.channel = init.channel;
    this.wake = init.wake;
    this.runController = init.runController;
    this.fence = init.fence;
    this.signal = AbortSignal.any([init.runController.signal, this.haltController.signal]);
    this.clientTools = clientToolsOf(init.record.clientTools);
    this.runContext = Object.freeze(structuredClone(init.record.context ?? {}));
  }

  get runId(): string {
    return this.record.runId;
  }

  get threadId(): string {
    return this.record.threadId;
  }

  now(): number {
    return this.services.now();
  }

  /**
   * Stamps, logs (before yielding) and yields one event. With an event log, appends run one after the
   * other and a seq is used only once its append succeeded, so a failed append leaves no gap.
   */
  emit(input: AgentEventInput): Promise<void> {
    const at = this.now();
    const eventLog = this.services.eventLog;
    const stamp = (): AgentEvent =>
      ({ ...input, runId: this.runId, seq: this.bookkeeping.lastSeq + 1, at }) as AgentEvent;
    const deliver = (event: AgentEvent) => {
      this.bookkeeping.lastSeq = event.seq;
      this.channel.push(event);
      if (event.type === 'step_start') this.openStep = event.step;
      else if (event.type === 'step_end') this.openStep = undefined;
    };
    if (!eventLog) {
      if (this.lost) return Promise.reject(this.halt);
      deliver(stamp());
      return Promise.resolve();
    }
    const job = this.emitting.then(async () => {
      this.throwIfLost();
      const event = stamp();
      try {
        await eventLog.append(this.runId, [event], { fence: this.fence });
      } catch (error) {
        throw this.writeFailed(error);
      }
      deliver(event);
    });
    this.emitting = job.catch(() => {});
    return job;
  }

  /**
   * Maps a failed write: `stale_claim` means another activation took the run over, so this one
   * loses its lease (tools abort, nothing more is written) and stops with `detached`.
   */
  writeFailed(error: unknown): unknown {
    if (AwakenError.hasCode(error, 'stale_claim')) {
      this.loseLease(error);
      return this.halt;
    }
    return error;
  }

  /** The run was taken over: stop at once, write nothing more. */
  loseLease(cause: unknown): void {
    if (this.lost) return;
    this.lost = true;
    this.halt = haltError(this.runId, 'lease_lost', cause);
    this.haltController.abort(this.halt);
    this.wake.notify();
  }

  /** Stop at the next safe point without a terminal state (the lease is still held until then). */
  requestDetach(reason: string): void {
    if (this.halt) return;
    this.halt = haltError(this.runId, 'detach', reason);
    this.wake.notify();
  }

  throwIfHalted(): void {
    if (this.halt) throw this.halt;
  }

  throwIfLost(): void {
    if (this.lost) throw this.halt;
  }

  /**
   * Closes the step this activation opened with a `step_end` event (framing only: the StepEnd phase
   * runs when a step's tool round completes). Every exit path calls it, so adapters always see
   * `step_start` … `step_end`.
   */
  async closeOpenStep(): Promise<void> {
    if (this.openStep !== undefined) await this.emit({ type: 'step_end', step: this.openStep });
  }

  setStatus(to: RunStatus): void {
    if (this.status === to) return;
    this.status = transitionRunStatus(this.status, to);
  }

  /** Re-derives the run status from the batch (seed 000) and reports the change. */
  syncStatus(): void {
    const derived = deriveRunStatus(this.batch);
    if (derived === 'waiting' && this.status === 'running') this.setStatus('waiting');
    if (derived === 'running' && this.status === 'waiting') this.setStatus('running');
    this.services.onStateChange?.({
      runId: this.runId,
      status: this.status,
      derived,
      calls: this.batch.map((call) => structuredClone(call)),
    });
  }

  /** Appends a message to the history; it is stored with the next checkpoint. */
  addMessage(message: Message, step?: number): void {
    this.messages.push(message);
    this.pending.push({
      runId: this.runId,
      step: step ?? this.record.steps,
      visibility: 'external',
      message,
    });
  }

  /** The reason the current activation is aborting, as a termination (a lost lease ends nothing). */
  abortTermination(): TerminationReason {
    this.throwIfLost();
    if (this.deadlineFired) {
      return { type: 'stopped', code: 'timeout', detail: 'the run exceeded its timeout' };
    }
    const reason = this.runController.signal.reason;
    return { type: 'cancelled', ...(typeof reason === 'string' ? { reason } : {}) };
  }

  /** The human-readable reason given to calls cancelled by a run exit. */
  abortMessage(): string {
    if (this.deadlineFired) return 'the run exceeded its timeout';
    const reason = this.runController.signal.reason;
    return typeof reason === 'string' ? reason : 'the run was cancelled';
  }
}

function haltError(runId: string, reason: HaltReason, cause: unknown): AwakenError {
  const why =
    reason === 'lease_lost'
      ? 'another activation took the run over'
      : `it was detached${typeof cause === 'string' ? ` (${cause})` : ''}`;
  return new AwakenError(
    'detached',
    `the activation of run ${runId} stopped: ${why}; resumeRun continues it`,
    {
      retryable: true,
      details: { runId, reason },
      ...(reason === 'lease_lost' ? { cause } : {}),
    },
  );
}
