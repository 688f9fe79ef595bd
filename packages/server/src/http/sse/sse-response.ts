/**
 * The headers of every event stream the server sends: no caching or transforming proxy in between,
 * and `x-accel-buffering: no` so nginx passes each write on at once.
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * The one way the server answers with server-sent events: a 200 carrying `body` — built with
 * `toSseStream` (keep-alives, cancel) over a paged source, or a protocol package's stream built on it —
 * with {@link SSE_HEADERS} under `headers`: a protocol's own header set wins where it differs (the AI
 * SDK's `x-vercel-ai-ui-message-stream: v1`, the bare `text/event-stream` its and AG-UI's reference
 * servers send), then the response's id headers.
 */
export function sseResponse(
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}
