import type { MessageRecord } from '@awaken/contract';
import type { AgUiMessage, AgUiToolCall } from '../wire/ag-ui-event';
import { assistantMessageId, reasoningMessageId, threadMessageId, toolResultMessageId } from './message-ids';

export interface MessagesSnapshotOptions {
  /** The id a client gave a user message (kept so its own copy is not replaced), when known. */
  clientIdOf?: (record: MessageRecord) => string | undefined;
}

function text(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content ?? null);
}

function toolCalls(calls: ReadonlyArray<{ id: string; name: string; arguments?: unknown }>): AgUiToolCall[] {
  return calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    },
  }));
}

/**
 * A thread's messages as AG-UI `Message`s, in thread order, with the ids its streams announced
 * (`message-ids`): an assistant message is `<run>:<step>:assistant` (its reasoning, when it has
 * some, a `reasoning` message before it), a tool result `<run>:<toolCallId>:result`. Internal
 * messages (model-only context) are left out.
 */
export function toAgUiMessages(
  records: readonly MessageRecord[],
  options: MessagesSnapshotOptions = {},
): AgUiMessage[] {
  const messages: AgUiMessage[] = [];
  for (const record of records) {
    if (record.visibility === 'internal') continue;
    const { message } = record;
    const fallback = threadMessageId(record.threadId, record.seq);
    const runId = record.runId;
    switch (message.role) {
      case 'user':
        messages.push({
          id: options.clientIdOf?.(record) ?? fallback,
          role: 'user',
          content: message.content,
        });
        break;
      case 'system':
        messages.push({ id: fallback, role: 'system', content: message.content });
        break;
      case 'assistant': {
        const step = record.step;
        const id = runId !== undefined && step !== undefined ? assistantMessageId(runId, step) : fallback;
        if (message.reasoning) {
          const reasoningId =
            runId !== undefined && step !== undefined
              ? reasoningMessageId(runId, step)
              : `${fallback}:reasoning`;
          messages.push({ id: reasoningId, role: 'reasoning', content: message.reasoning });
        }
        messages.push({
          id,
          role: 'assistant',
          ...(message.text ? { content: message.text } : {}),
          ...(message.toolCalls.length > 0 ? { toolCalls: toolCalls(message.toolCalls) } : {}),
        });
        break;
      }
      case 'tool': {
        const id = runId === undefined ? fallback : toolResultMessageId(runId, message.toolCallId);
        messages.push({
          id,
          role: 'tool',
          toolCallId: message.toolCallId,
          content: text(message.content),
          ...(message.outcome === 'failed' ? { error: text(message.content) } : {}),
        });
        break;
      }
    }
  }
  return messages;
}
