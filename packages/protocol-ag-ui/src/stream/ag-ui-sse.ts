import type { AgUiEvent } from '../wire/ag-ui-event';

/** Response headers of an AG-UI event stream (proxies need the last two to stream). */
export const AG_UI_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** A keep-alive SSE comment (the client's parser skips comment lines). */
export const AG_UI_KEEP_ALIVE = ': keep-alive\n\n';

/**
 * One event as one SSE event: `data: <json>\n\n`, LF only (the client splits on `\n\n`; CRLF
 * breaks it). Never a `[DONE]`: the client parses every `data:` line as an event.
 */
export function formatAgUiEvent(event: AgUiEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

export interface AgUiSseOptions {
  /** Sends a keep-alive comment after this many milliseconds without an event (none by default). */
  keepAliveMs?: number;
}

/**
 * The SSE body of an AG-UI stream. Cancelling it (the client went away) returns the event iterator,
 * so its source stops being read; the run itself goes on, on the server.
 */
export function toAgUiSseStream(
  events: AsyncIterable<AgUiEvent>,
  options: AgUiSseOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let timer: ReturnType<typeof setInterval> | undefined;
  let idle = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (options.keepAliveMs === undefined) return;
      timer = setInterval(() => {
        if (idle) controller.enqueue(encoder.encode(AG_UI_KEEP_ALIVE));
        idle = true;
      }, options.keepAliveMs);
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        idle = false;
        if (next.done) {
          clearInterval(timer);
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(formatAgUiEvent(next.value)));
      } catch (error) {
        clearInterval(timer);
        controller.error(error);
      }
    },
    async cancel() {
      clearInterval(timer);
      await iterator.return?.();
    },
  });
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
