import type { AssistantMessage, Message } from '@awaken/contract';
import type { RunSession } from './run-session';

/** The index of the last assistant turn in `messages`, or -1. */
export function lastAssistantIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role === 'assistant') return index;
  }
  return -1;
}

/** True when the history ends with an assistant turn that needs no further model response. */
export function endsWithFinalAnswer(session: RunSession): boolean {
  const last = session.run.messages.at(-1);
  return last?.role === 'assistant' && last.toolCalls.length === 0;
}

/** The text of the last assistant turn, if any. */
export function lastAssistantText(session: RunSession): string | undefined {
  const { messages } = session.run;
  const index = lastAssistantIndex(messages);
  return index < 0 ? undefined : (messages[index] as AssistantMessage).text;
}
