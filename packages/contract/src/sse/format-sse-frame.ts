/**
 * One server-sent event block (WHATWG HTML §9.2). Every field is optional, but a block has at least
 * one: a comment-only block is a keep-alive, a `retry` with a comment a stream's greeting.
 */
export interface SseFrame {
  /** Comment lines (`: …`): every client skips them; they keep proxies from closing an idle stream. */
  comment?: string;
  /** The client's reconnect delay in milliseconds (a non-negative integer). */
  retry?: number;
  /** The event id, sent back by a reconnecting `EventSource` as `Last-Event-ID`. */
  id?: string | number;
  /** The event type (`message` when absent). */
  event?: string;
  /** The payload; a value with newlines goes out as one `data:` line per line, as the format says. */
  data?: string;
}

/** The comment a stream sends while it has nothing else to say. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

const NEWLINE = /\r\n|\r|\n/;
const LINE_BREAK = /[\r\n]/;

/**
 * The text of one SSE block: `field: value` lines in the order `retry`, comment, `id`, `event`,
 * `data`, each ended by LF (never CRLF: some clients split events on `\n\n` only), and a blank line.
 * A data or comment value never puts a raw newline inside a line: it is split into several lines,
 * which a client joins back with `\n`. An `id` or `event` holding a newline, a `retry` that is not a
 * non-negative integer, or a block with no field is a bug of the caller and throws a `TypeError`.
 */
export function formatSseFrame(frame: SseFrame): string {
  let text = '';
  if (frame.retry !== undefined) {
    if (!Number.isSafeInteger(frame.retry) || frame.retry < 0)
      throw new TypeError(`SSE retry must be a non-negative integer, got ${frame.retry}`);
    text += `retry: ${frame.retry}\n`;
  }
  if (frame.comment !== undefined) text += lines(':', frame.comment);
  if (frame.id !== undefined) text += `id: ${singleLine('id', String(frame.id))}\n`;
  if (frame.event !== undefined) text += `event: ${singleLine('event', frame.event)}\n`;
  if (frame.data !== undefined) text += lines('data:', frame.data);
  if (text === '') throw new TypeError('an SSE frame needs at least one field');
  return `${text}\n`;
}

function lines(prefix: string, value: string): string {
  // the common case (a JSON payload) holds no line break: one line, no split
  if (!LINE_BREAK.test(value)) return `${prefix} ${value}\n`;
  return value
    .split(NEWLINE)
    .map((line) => `${prefix} ${line}\n`)
    .join('');
}

function singleLine(field: string, value: string): string {
  // a NUL in an id makes the client ignore the field
  if (LINE_BREAK.test(value) || (field === 'id' && value.includes('\0')))
    throw new TypeError(`an SSE ${field} cannot hold a line break${field === 'id' ? ' or NUL' : ''}`);
  return value;
}
