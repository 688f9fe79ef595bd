import {
  SSE_KEEP_ALIVE as KEEP_ALIVE,
  type SseStreamOptions,
  formatSseFrame,
  toSseStream,
} from '@awaken/contract';
import type { UiMessageChunk } from '../wire/ui-message-chunk';

/**
 * The response headers of a UI message stream, as `ai`'s `createUIMessageStreamResponse` sends them.
 * The v6 client does not check them, but the AI SDK docs require the protocol header for custom
 * back ends and proxies need `x-accel-buffering: no` and `cache-control: no-cache` to stream.
 */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** The last SSE event of every UI message stream. */
export const SSE_DONE = formatSseFrame({ data: '[DONE]' });

/** A keep-alive SSE comment (ignored by the client's parser). */
export const SSE_KEEP_ALIVE = KEEP_ALIVE;

/** One chunk as one SSE event: `data: <json>\n\n` (LF only; JSON never contains a raw newline). */
export function formatSseChunk(chunk: UiMessageChunk): string {
  return formatSseFrame({ data: JSON.stringify(chunk) });
}

/** `keepAliveMs`: a keep-alive comment after that many milliseconds of silence (none by default). */
export type UiMessageSseOptions = Pick<SseStreamOptions<UiMessageChunk>, 'keepAliveMs'>;

/**
 * The SSE body of a UI message stream: one `data:` event per chunk, then `data: [DONE]`. Cancelling
 * the body (the client went away) returns the chunk iterator, so its source stops being read.
 */
export function toUiMessageSseStream(
  chunks: AsyncIterable<UiMessageChunk>,
  options: UiMessageSseOptions = {},
): ReadableStream<Uint8Array> {
  return toSseStream(chunks, { encode: formatSseChunk, tail: SSE_DONE, keepAliveMs: options.keepAliveMs });
}

/** A `Response` carrying the chunks as a UI message stream, with the standard headers. */
export function createUiMessageStreamResponse(
  chunks: AsyncIterable<UiMessageChunk>,
  options: UiMessageSseOptions & { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(toUiMessageSseStream(chunks, options), {
    status: options.status ?? 200,
    headers: { ...UI_MESSAGE_STREAM_HEADERS, ...options.headers },
  });
}
