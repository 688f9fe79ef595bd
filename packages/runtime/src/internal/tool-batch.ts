import {
  type AssistantMessage,
  type Message,
  type ToolCallState,
  type ToolCallStatus,
  deriveRunStatus,
  isTerminalToolCallStatus,
  transitionToolCall,
} from '@awaken/contract';
import type { RunSession } from './run-session';

const RUNNABLE = new Set(['new', 'running', 'resuming']);

/**
 * The batch part of a session: the state of every tool call the run knows (by id) and the current
 * batch — the calls of the last assistant turn, in call order.
 */
export class ToolBatch {
  /** The current batch. */
  calls: ToolCallState[] = [];
  /** Set by a ToolGate `block` without `continueRun`. */
  blocked: string | undefined;

  constructor(readonly byId: Map<string, ToolCallState>) {}

  /** True when a call of the batch has no committed tool message yet. */
  isOpen(): boolean {
    return this.calls.some((state) => !state.resultCommitted);
  }

  /** True when every call is answered but not all answers are in the history yet. */
  isUnflushed(): boolean {
    return this.isOpen() && this.calls.every((call) => isTerminalToolCallStatus(call.status));
  }

  hasSuspended(): boolean {
    return this.calls.some((call) => call.status === 'suspended');
  }

  /** True when the executor has work to do in this batch right now. */
  hasRunnable(parallel: boolean): boolean {
    if (parallel) return this.calls.some((state) => RUNNABLE.has(state.status));
    const next = this.calls.find((state) => !isTerminalToolCallStatus(state.status));
    return next !== undefined && RUNNABLE.has(next.status);
  }
}

/** The index of the last assistant turn in `messages`, or -1. */
export function lastAssistantIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role === 'assistant') return index;
  }
  return -1;
}

/**
 * Rebuilds the current batch from the history: the tool calls of the last assistant turn, each with
 * its stored state (or a fresh `new` one). A call with a committed tool message counts as answered
 * whatever its state says, so a finished call is never executed again.
 */
export function loadBatch(session: RunSession): ToolCallState[] {
  const { messages } = session.run;
  const index = lastAssistantIndex(messages);
  if (index < 0) return [];
  const assistant = messages[index] as AssistantMessage;
  const answered = new Set<string>();
  for (const message of messages.slice(index + 1)) {
    if (message.role === 'tool') answered.add(message.toolCallId);
  }
  const batch: ToolCallState[] = [];
  for (const [position, call] of assistant.toolCalls.entries()) {
    // a call id the model repeated within one turn is one call: executed once, answered once
    if (batch.some((state) => state.callId === call.id)) continue;
    let state = session.batch.byId.get(call.id);
    if (!state) {
      state = {
        callId: call.id,
        toolName: call.name,
        arguments: call.arguments,
        status: 'new',
        step: Math.max(1, session.run.record.steps),
        index: position,
        resultCommitted: false,
        executions: 0,
        updatedAt: session.now(),
      };
      session.batch.byId.set(call.id, state);
    }
    if (answered.has(call.id)) state.resultCommitted = true;
    batch.push(state);
  }
  return batch;
}

/** Re-derives the run status from the batch and reports the change to `onStateChange`. */
export function syncRunStatus(session: RunSession): void {
  const { run, batch } = session;
  const derived = deriveRunStatus(batch.calls);
  if (derived === 'waiting' && run.status === 'running') run.setStatus('waiting');
  if (derived === 'running' && run.status === 'waiting') run.setStatus('running');
  session.services.onStateChange?.({
    runId: session.runId,
    status: run.status,
    derived,
    calls: batch.calls.map((call) => structuredClone(call)),
  });
}

/** Moves a call through the contract's transition table and re-derives the run status. */
export function moveCall(session: RunSession, state: ToolCallState, to: ToolCallStatus): void {
  if (state.status !== to) state.status = transitionToolCall(state.status, to);
  state.updatedAt = session.now();
  syncRunStatus(session);
}
