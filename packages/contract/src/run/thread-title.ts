import type { NewMessage } from '../messages/message-record';

/** The longest thread title, in Unicode code points. */
export const THREAD_TITLE_MAX_CHARS = 100;

/**
 * A thread's title: the text of its first external user message, its whitespace runs made one
 * space, trimmed, cut to {@link THREAD_TITLE_MAX_CHARS} code points (never inside a surrogate pair).
 * Undefined when `messages` hold no external user message with text. Every store sets a thread's
 * `title` with it when that message is appended (by `appendMessages` or a checkpoint) and never
 * changes it after.
 */
export function threadTitleOf(
  messages: readonly Pick<NewMessage, 'visibility' | 'message'>[],
): string | undefined {
  for (const { visibility, message } of messages) {
    if (visibility !== 'external' || message.role !== 'user') continue;
    const text = message.content.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const points = Array.from(text);
    return points.length <= THREAD_TITLE_MAX_CHARS
      ? text
      : points.slice(0, THREAD_TITLE_MAX_CHARS).join('').trimEnd();
  }
  return undefined;
}
