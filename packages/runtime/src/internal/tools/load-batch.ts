import type { AssistantMessage, ToolCallState } from '@awaken/contract';
import type { RunSession } from '../session/run-session';
import { lastAssistantIndex } from '../session/tool-batch';

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
