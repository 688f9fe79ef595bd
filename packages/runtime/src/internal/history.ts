import type { AssistantMessage, ToolCallState } from '@awaken/contract';
import type { RunSession } from './run-session';

function lastAssistantIndex(session: RunSession): number {
  for (let index = session.messages.length - 1; index >= 0; index -= 1) {
    if (session.messages[index]?.role === 'assistant') return index;
  }
  return -1;
}

/**
 * Rebuilds the current batch from the history alone: the tool calls of the last assistant turn,
 * each with its stored state (or a fresh `new` one). A call with a committed tool message counts as
 * answered whatever its state says, so a finished call is never executed again.
 */
export function loadBatch(session: RunSession): ToolCallState[] {
  const index = lastAssistantIndex(session);
  if (index < 0) return [];
  const assistant = session.messages[index] as AssistantMessage;
  const answered = new Set<string>();
  for (const message of session.messages.slice(index + 1)) {
    if (message.role === 'tool') answered.add(message.toolCallId);
  }
  const batch: ToolCallState[] = [];
  for (const [position, call] of assistant.toolCalls.entries()) {
    // a call id the model repeated within one turn is one call: executed once, answered once
    if (batch.some((state) => state.callId === call.id)) continue;
    let state = session.calls.get(call.id);
    if (!state) {
      state = {
        callId: call.id,
        toolName: call.name,
        arguments: call.arguments,
        status: 'new',
        step: Math.max(1, session.record.steps),
        index: position,
        resultCommitted: false,
        executions: 0,
        updatedAt: session.now(),
      };
      session.calls.set(call.id, state);
    }
    if (answered.has(call.id)) state.resultCommitted = true;
    batch.push(state);
  }
  return batch;
}

/** True when the batch still has a call without a committed tool message. */
export function batchIsOpen(batch: readonly ToolCallState[]): boolean {
  return batch.some((state) => !state.resultCommitted);
}

/** True when the history ends with an assistant turn that needs no further model response. */
export function endsWithFinalAnswer(session: RunSession): boolean {
  const last = session.messages[session.messages.length - 1];
  return last?.role === 'assistant' && last.toolCalls.length === 0;
}

/** The text of the last assistant turn, if any. */
export function lastAssistantText(session: RunSession): string | undefined {
  const index = lastAssistantIndex(session);
  return index < 0 ? undefined : (session.messages[index] as AssistantMessage).text;
}
