import { type ToolCallState, isClientToolTicket } from '@awaken/contract';
import { toolResultMessageId } from './message-ids';
import type { AgUiInputMessage } from '../request/run-agent-input';

/** The calls of one run, as its stored record holds them. */
export interface SupersedingRun {
  runId: string;
  calls: Iterable<Pick<ToolCallState, 'callId' | 'ticket'>>;
}

/**
 * The client's `role:"tool"` messages that the server's own results supersede: messages for calls of
 * `run` that the server executes (not a client tool's call, whose result the client itself gives),
 * held under another id than the server's result message. CopilotKit appends one per interrupted
 * call on resume (`{"approved":true}`), so after the resumed run the client holds two results for
 * one call; a closing `MESSAGES_SNAPSHOT` replaces the client's list, and with it that copy.
 * Returns the ids of those messages (empty when the client's thread agrees with the server's).
 */
export function supersededToolMessages(messages: readonly AgUiInputMessage[], run: SupersedingRun): string[] {
  const serverCalls = new Set<string>();
  for (const call of run.calls) {
    if (!call.ticket || !isClientToolTicket(call.ticket)) serverCalls.add(call.callId);
  }
  return messages
    .filter(
      (message) =>
        message.role === 'tool' &&
        message.toolCallId !== undefined &&
        serverCalls.has(message.toolCallId) &&
        message.id !== toolResultMessageId(run.runId, message.toolCallId),
    )
    .map((message) => message.id);
}
