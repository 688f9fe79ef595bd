import { type Message, type ToolCallState, isTerminalToolCallStatus } from '@awaken/contract';

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
  /** Set when a ticket expired and the agent ends the run on expiry (`onApprovalExpired: 'end_run'`). */
  expired: string | undefined;

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
