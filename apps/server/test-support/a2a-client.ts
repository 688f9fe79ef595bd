import { randomUUID } from 'node:crypto';
import { SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';

/** A fetch that adds a bearer token (what an A2A client does with an `AuthenticationHandler`). */
export function bearerFetch(token: string | undefined, base: typeof fetch = fetch): typeof fetch {
  if (!token) return base;
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return base(input, { ...init, headers });
  };
}

/**
 * The real `@a2a-js/sdk` client of an agent, from its card at `${baseUrl}/.well-known/agent-card.json`
 * (its requests through `options.fetch` when given).
 */
export async function a2aClient(
  baseUrl: string,
  options: { token?: string; fetch?: typeof fetch } = {},
): Promise<Client> {
  const fetchImpl = bearerFetch(options.token, options.fetch);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(baseUrl);
}

/** Send params from ProtoJSON (`{text}` / `{data}` parts), as the SDK's own types. */
export function sendParams(
  parts: Array<{ text: string } | { data: unknown }>,
  ids: { taskId?: string; contextId?: string; messageId?: string } = {},
  configuration?: Record<string, unknown>,
): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts, ...ids },
    ...(configuration ? { configuration } : {}),
  });
}

/** Every event of a stream the client yields, back in ProtoJSON for readable assertions. */
export async function collect(stream: AsyncIterable<StreamResponse>): Promise<Array<Record<string, any>>> {
  const events: Array<Record<string, any>> = [];
  for await (const event of stream) events.push(StreamResponse.toJSON(event) as Record<string, any>);
  return events;
}

/** A task the client returned, in ProtoJSON. */
export const taskJson = (task: Task) => Task.toJSON(task) as Record<string, any>;

/** The data parts of a status message (one per open ticket). */
export function ticketsOf(task: Record<string, any>): Array<Record<string, any>> {
  const parts: Array<Record<string, any>> = task.status?.message?.parts ?? [];
  return parts.flatMap((part) => (part.data === undefined ? [] : [part.data]));
}

/** The last status of a stream. */
export function lastStatus(events: Array<Record<string, any>>): Record<string, any> | undefined {
  return events.filter((event) => event.statusUpdate).at(-1)?.statusUpdate.status;
}

/** The text of the answer artifact, rebuilt from a stream's snapshot and appended chunks. */
export function answerText(events: Array<Record<string, any>>): string {
  let text = '';
  for (const event of events) {
    if (event.task) {
      const answer = (event.task.artifacts ?? []).find((artifact: any) => artifact.artifactId === 'answer');
      text = answer ? answer.parts.map((part: any) => part.text).join('') : '';
    }
    const update = event.artifactUpdate;
    if (update?.artifact.artifactId !== 'answer') continue;
    const chunk = update.artifact.parts.map((part: any) => part.text).join('');
    text = update.append ? text + chunk : chunk;
  }
  return text;
}

/** One JSON-RPC request without the SDK (v0.3 requests, malformed ones). */
export async function rpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; contentType: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    contentType: response.headers.get('content-type'),
  };
}
