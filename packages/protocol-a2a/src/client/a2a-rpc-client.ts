import type { A2aStreamResponse } from '../wire/a2a-types';

/** An error a remote A2A agent answered (JSON-RPC `error`), or a transport failure (`code` 0). */
export class A2aRemoteError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'A2aRemoteError';
  }
}

export interface A2aRpcClientOptions {
  /** The agent's base URL: its card is `${url}/.well-known/agent-card.json`. */
  url: string;
  /** Sent with every request (e.g. `authorization`). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** Reads SSE frames (`data:` lines; `event: error` frames), ignoring comments. */
async function* sseFrames(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event?: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n/g, '\n');
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event: string | undefined;
        const data: string[] = [];
        for (const line of frame.split('\n')) {
          if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          else if (line.startsWith('event:')) event = line.slice(6).trim();
        }
        if (data.length > 0) yield { ...(event ? { event } : {}), data: data.join('\n') };
        end = buffer.indexOf('\n\n');
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A minimal A2A v1.0 JSON-RPC client: resolves the agent card's JSON-RPC interface, sends requests
 * with `A2A-Version: 1.0`, and reads streaming answers, checking each frame's id.
 */
export class A2aRpcClient {
  private endpoint?: Promise<string>;
  private nextId = 1;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: A2aRpcClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  private headers(accept: string): Record<string, string> {
    return { ...this.options.headers, 'content-type': 'application/json', accept, 'a2a-version': '1.0' };
  }

  /** The JSON-RPC URL the card names for protocol 1.0. */
  resolveEndpoint(): Promise<string> {
    this.endpoint ??= (async () => {
      const base = this.options.url.replace(/\/+$/, '');
      const response = await this.fetch(`${base}/.well-known/agent-card.json`, {
        headers: this.headers('application/json'),
      });
      if (!response.ok) throw new A2aRemoteError(0, `agent card at ${base}: HTTP ${response.status}`);
      const card = (await response.json()) as { supportedInterfaces?: Array<Record<string, string>> };
      const found = card.supportedInterfaces?.find(
        (entry) => entry.protocolBinding === 'JSONRPC' && entry.protocolVersion === '1.0',
      );
      if (!found?.url)
        throw new A2aRemoteError(0, `agent card at ${base} lists no A2A 1.0 JSON-RPC interface`);
      return found.url;
    })().catch((error: unknown) => {
      this.endpoint = undefined;
      throw error;
    });
    return this.endpoint;
  }

  private async post(method: string, params: unknown, accept: string, signal?: AbortSignal) {
    const id = this.nextId++;
    const response = await this.fetch(await this.resolveEndpoint(), {
      method: 'POST',
      headers: this.headers(accept),
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw new A2aRemoteError(0, `${method}: HTTP ${response.status}`);
    return { id, response };
  }

  private static unwrap(
    id: number,
    json: { id?: unknown; result?: unknown; error?: { code: number; message: string } },
  ) {
    if (json.error) throw new A2aRemoteError(json.error.code, json.error.message);
    if (json.id !== id) throw new A2aRemoteError(0, `response id ${String(json.id)} is not request id ${id}`);
    return json.result;
  }

  /** One request, one answer: the `result`, or an {@link A2aRemoteError} with the remote's code. */
  async call<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    const { id, response } = await this.post(method, params, 'application/json', signal);
    return A2aRpcClient.unwrap(id, await response.json()) as T;
  }

  /** A streaming request's events until the remote closes the stream. */
  async *stream(method: string, params: unknown, signal?: AbortSignal): AsyncGenerator<A2aStreamResponse> {
    const { id, response } = await this.post(method, params, 'text/event-stream', signal);
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      A2aRpcClient.unwrap(id, await response.json());
      throw new A2aRemoteError(0, `${method}: the answer is not an event stream`);
    }
    if (!response.body) return;
    for await (const frame of sseFrames(response.body)) {
      yield A2aRpcClient.unwrap(id, JSON.parse(frame.data)) as A2aStreamResponse;
    }
  }
}
