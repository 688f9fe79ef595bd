import { SSE_KEEP_ALIVE, type SseStreamOptions, formatSseFrame, toSseStream } from '@awaken/contract';
import type { AgUiEvent } from '../wire/ag-ui-event';

/** Response headers of an AG-UI event stream (proxies need the last two to stream). */
export const AG_UI_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** A keep-alive SSE comment (the client's parser skips comment lines). */
export const AG_UI_KEEP_ALIVE = SSE_KEEP_ALIVE;

/**
 * One event as one SSE event: `data: <json>\n\n`, LF only (the client splits on `\n\n`; CRLF
 * breaks it). Never a `[DONE]`: the client parses every `data:` line as an event.
 */
export function formatAgUiEvent(event: AgUiEvent): string {
  return formatSseFrame({ data: JSON.stringify(event) });
}

/** `keepAliveMs`: a keep-alive comment after that many milliseconds of silence (none by default). */
export type AgUiSseOptions = Pick<SseStreamOptions<AgUiEvent>, 'keepAliveMs'>;

/**
 * The SSE body of an AG-UI stream. Cancelling it (the client went away) returns the event iterator,
 * so its source stops being read; the run itself goes on, on the server.
 */
export function toAgUiSseStream(
  events: AsyncIterable<AgUiEvent>,
  options: AgUiSseOptions = {},
): ReadableStream<Uint8Array> {
  return toSseStream(events, { encode: formatAgUiEvent, keepAliveMs: options.keepAliveMs });
}

/** A `Response` streaming the events as AG-UI SSE, with the standard headers. */
export function createAgUiResponse(
  events: AsyncIterable<AgUiEvent>,
  options: AgUiSseOptions & { headers?: Record<string, string> } = {},
): Response {
  return new Response(toAgUiSseStream(events, options), {
    status: 200,
    headers: { ...AG_UI_STREAM_HEADERS, ...options.headers },
  });
}
