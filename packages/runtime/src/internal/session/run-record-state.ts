import {
  type AssistantMessage,
  type Message,
  type NewMessage,
  type RunContext,
  type RunRecord,
  type RunStatus,
  transitionRunStatus,
} from '@awaken/contract';
import { type StoredClientTool, clientToolsOf } from '../runtime/run-request';
import { lastAssistantIndex } from './tool-batch';
import type { RuntimeBookkeeping } from './runtime-bookkeeping';

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

  /**
   * The checkpoint being written, if any: checkpoints of one session are written one at a time, in
   * call order (a call that suspends checkpoints while others of its round still run).
   */
  checkpointing: Promise<void> = Promise.resolve();

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
