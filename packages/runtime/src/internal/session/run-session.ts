import {
  type AgentEvent,
  type CheckpointWithEvents,
  jointCheckpointWriter,
  type DecisionRecord,
  type Message,
  type RunControlInbox,
  type RunEventLog,
  type RunRecord,
  type ThreadRunStore,
  type ToolCallDecision,
  type ToolCallState,
} from '@awaken/contract';
import type { RunStateSnapshot } from '../../types';
import { InboxFreshness } from './inbox-freshness';
import { Activation } from './activation';
import { DecisionQueue } from './decision-queue';
import type { EventChannel } from './event-channel';
import type { ResolvedAgent } from '../runtime/resolve-agents';
import { RunEvents } from './run-events';
import { RunRecordState } from './run-record-state';
import type { RuntimeBookkeeping } from './runtime-bookkeeping';
import { ToolBatch } from './tool-batch';
import type { WakeSignal } from './activation';
import type { ThreadMemory } from './thread-memory';
import type { ChildRunner } from './child-runner';

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
  transientStoreErrors: 'end_run' | 'interrupt';
  /** Thread-scoped plugin state, shared by the runs of a thread in this process (bounded). */
  threadMemory: ThreadMemory;
  /** Runs child runs inline (sub-agents); set by the runtime. */
  children?: ChildRunner;
}

export interface RunSessionInit {
  services: RuntimeServices;
  agent: ResolvedAgent;
  record: RunRecord;
  messages: Message[];
  calls: Map<string, ToolCallState>;
  pendingDecisions: ToolCallDecision[];
  /** The run's audit trail so far (`__decision_records`). */
  decisionRecords?: DecisionRecord[];
  bookkeeping: RuntimeBookkeeping;
  threadState: Record<string, unknown>;
  channel: EventChannel<AgentEvent>;
  wake: WakeSignal;
  runController: AbortController;
  /** The fence every write of this session carries. */
  fence: number;
}

/**
 * One run in this process, in five parts: `run` (the record, history and bookkeeping a checkpoint
 * stores), `batch` (the tool calls of the last turn), `decisions` (accepted, not yet applied),
 * `events` (the run's event stream) and `activation` (the lease, halt, cancel and deadline).
 */
export class RunSession {
  readonly run: RunRecordState;
  readonly batch: ToolBatch;
  readonly decisions: DecisionQueue;
  readonly events: RunEvents;
  readonly activation: Activation;
  /** The stores' joint write of a checkpoint and the events before it, when they offer one. */
  readonly joint: CheckpointWithEvents | undefined;
  /** Whether a gate's inbox peek can be skipped (see InboxFreshness). */
  readonly inbox = new InboxFreshness();
  readonly runId: string;
  readonly threadId: string;
  /** The runtime's clock. */
  readonly now: () => number;

  constructor(
    readonly services: RuntimeServices,
    /** The agent running the run: replaced at the end of a step that handed the run off. */
    public agent: ResolvedAgent,
    init: Omit<RunSessionInit, 'services' | 'agent'>,
  ) {
    this.runId = init.record.runId;
    this.threadId = init.record.threadId;
    this.now = services.now;
    // released by the activation when it ends (see startActivation)
    const memory = services.threadMemory.acquire(init.record.threadId);
    this.run = new RunRecordState({
      record: init.record,
      messages: init.messages,
      bookkeeping: init.bookkeeping,
      plugins: { run: new Map(), thread: memory, storedThread: init.threadState },
    });
    this.batch = new ToolBatch(init.calls);
    this.decisions = new DecisionQueue(
      init.pendingDecisions,
      init.bookkeeping.decisionIds,
      init.decisionRecords,
    );
    this.activation = new Activation(init.record.runId, init);
    this.joint = jointCheckpointWriter(services.store, services.eventLog);
    this.events = new RunEvents({
      jointCheckpoints: this.joint !== undefined,
      runId: init.record.runId,
      channel: init.channel,
      eventLog: services.eventLog,
      now: services.now,
      bookkeeping: init.bookkeeping,
      activation: this.activation,
    });
  }
}
