import {
  type AssistantMessage,
  type Message,
  type NewMessage,
  RUNTIME_STATE_PATH,
  RUN_STATE_PATHS,
  type RunContext,
  type RunLifecycleState,
  type RunRecord,
  type RunStatus,
  type ToolCallDecision,
  type ToolCallState,
  type UserMessage,
  readAppliedDecisionIds,
  readQueuedDecisions,
  readToolCallStates,
  transitionRunStatus,
} from '@awaken/contract';
import { type StoredClientTool, clientToolsOf } from './run-request';
import { lastAssistantIndex } from './tool-batch';

/** Runtime bookkeeping kept under `__runtime` in RunRecord.state. */
export interface RuntimeBookkeeping {
  /** The last event seq emitted before this checkpoint. */
  lastSeq: number;
  /** Every decision id ever applied to this run (idempotency across activations). */
  decisionIds: string[];
  /** Ids of the other run-control commands (cancel, input) this run applied. */
  controlIds: string[];
  /** The request input, kept until the user_message checkpoint commits it. */
  input?: UserMessage[];
  inputCommitted: boolean;
  /** The last step whose StepEnd ran. */
  stepEnded: number;
  /** Failed tool results in a row so far (consecutive_errors). */
  consecutiveErrors: number;
  /** `name:args` signatures of the latest finished calls, oldest first (loop_detection), bounded. */
  recentCalls: string[];
}

export const RUNTIME_STATE_KEY = RUNTIME_STATE_PATH;

/** Plugin state of a run: run-scoped keys, thread-scoped keys, and the thread state as stored. */
export interface PluginStateMaps {
  run: Map<string, unknown>;
  thread: Map<string, unknown>;
  storedThread: Record<string, unknown>;
}

/**
 * The record part of a session: the run as last stored, its status, the history the model sees,
 * the messages the next checkpoint stores, the runtime's bookkeeping and the plugin state.
 */
export class RunRecordState {
  record: RunRecord;
  status: RunStatus;
  readonly messages: Message[];
  /** Thread messages already stored. */
  committedCount: number;
  /** Messages added since the last checkpoint. */
  pending: NewMessage[] = [];
  readonly bookkeeping: RuntimeBookkeeping;
  readonly plugins: PluginStateMaps;
  /** The client tools the run request declared, by name. */
  readonly clientTools: Map<string, StoredClientTool>;
  /** The run request's context, as every hook and tool sees it. */
  readonly context: Readonly<RunContext>;

  constructor(init: {
    record: RunRecord;
    messages: Message[];
    bookkeeping: RuntimeBookkeeping;
    plugins: PluginStateMaps;
  }) {
    this.record = init.record;
    this.status = init.record.status;
    this.messages = init.messages;
    this.committedCount = init.messages.length;
    this.bookkeeping = init.bookkeeping;
    this.plugins = init.plugins;
    this.clientTools = clientToolsOf(init.record.clientTools);
    this.context = Object.freeze(structuredClone(init.record.context ?? {}));
  }

  setStatus(to: RunStatus): void {
    if (this.status === to) return;
    this.status = transitionRunStatus(this.status, to);
  }

  /** True when the history ends with an assistant turn that needs no further model response. */
  endsWithFinalAnswer(): boolean {
    const last = this.messages.at(-1);
    return last?.role === 'assistant' && last.toolCalls.length === 0;
  }

  /** The text of the last assistant turn, if any. */
  lastAssistantText(): string | undefined {
    const index = lastAssistantIndex(this.messages);
    return index < 0 ? undefined : (this.messages[index] as AssistantMessage).text;
  }

  /** Appends a message to the history; it is stored with the next checkpoint. */
  addMessage(message: Message, step?: number): void {
    this.messages.push(message);
    this.pending.push({
      runId: this.record.runId,
      step: step ?? this.record.steps,
      visibility: 'external',
      message,
    });
  }
}

/** What a run record's state decodes to. */
export interface DecodedRunState {
  calls: Map<string, ToolCallState>;
  pendingDecisions: ToolCallDecision[];
  bookkeeping: RuntimeBookkeeping;
}

type Scope = Record<string, { tool_call_state?: unknown; suspended_call?: unknown }>;

/**
 * Ids of the decisions a stored run applied (checkpointed with it: its idempotency truth) or holds
 * accepted but not applied yet.
 */
export function readDecisionIds(record: Pick<RunRecord, 'state'>): Set<string> {
  const ids = readAppliedDecisionIds(record);
  for (const decision of readQueuedDecisions(record)) ids.add(decision.decisionId);
  return ids;
}

export function decodeRunState(record: RunRecord): DecodedRunState {
  const calls = new Map(readToolCallStates(record).map((state) => [state.callId, state]));
  const pendingDecisions = readQueuedDecisions(record);
  const raw = (record.state[RUNTIME_STATE_KEY] ?? {}) as Partial<RuntimeBookkeeping>;
  return {
    calls,
    pendingDecisions,
    bookkeeping: {
      lastSeq: raw.lastSeq ?? 0,
      decisionIds: raw.decisionIds ?? [],
      controlIds: raw.controlIds ?? [],
      input: raw.input,
      inputCommitted: raw.inputCommitted ?? true,
      stepEnded: raw.stepEnded ?? 0,
      consecutiveErrors: raw.consecutiveErrors ?? 0,
      recentCalls: raw.recentCalls ?? [],
    },
  };
}

export interface EncodeRunStateInput {
  lifecycle: RunLifecycleState;
  calls: Iterable<ToolCallState>;
  pendingDecisions: readonly ToolCallDecision[];
  bookkeeping: RuntimeBookkeeping;
  pluginState: Record<string, unknown>;
}

/**
 * Builds RunRecord.state: the durable state paths, runtime bookkeeping and persistent run-scoped plugin keys.
 * Maps keyed by tool call id have no prototype, so an id like `__proto__` stays an ordinary key.
 */
export function encodeRunState(input: EncodeRunStateInput): Record<string, unknown> {
  const scope: Scope = Object.create(null);
  for (const call of input.calls) {
    scope[call.callId] =
      call.status === 'suspended' && call.ticket
        ? { tool_call_state: call, suspended_call: call.ticket }
        : { tool_call_state: call };
  }
  const decisions: Record<string, ToolCallDecision> = Object.create(null);
  for (const decision of input.pendingDecisions) decisions[decision.toolCallId] = decision;
  const { input: requestInput, ...rest } = input.bookkeeping;
  return {
    ...input.pluginState,
    [RUN_STATE_PATHS.run]: input.lifecycle,
    [RUN_STATE_PATHS.toolCallScope]: scope,
    [RUN_STATE_PATHS.resumeDecisions]: decisions,
    [RUNTIME_STATE_KEY]: rest.inputCommitted ? rest : { ...rest, input: requestInput },
  };
}
