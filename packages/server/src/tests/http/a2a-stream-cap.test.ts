import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_ID, type HttpFixture, TOKENS, createHttpFixture } from '../../../test-support/http-fixture';

/**
 * An A2A stream takes a slot of the tenant's stream cap because of what its method does, not
 * because of its `Accept` header: a client that leaves the header out (the SDK always sends it)
 * used to open 20 of 20 streams past a cap of 5.
 */
const CAP = 3;
let fx: HttpFixture;
let server: ServerType;
let port: number;
const open: Array<() => void> = [];

beforeAll(async () => {
  fx = await createHttpFixture({ maxStreamsPerTenant: CAP, a2a: { agents: [{ id: AGENT_ID }] } });
  server = serve({ fetch: fx.http.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const abort of open) abort();
  await new Promise((resolve) => server.close(resolve));
  await fx.close();
});

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  /** The JSON body of an answer that is not a stream. */
  body?: any;
  /** Closes a stream. */
  abort: () => void;
}

/**
 * A JSON-RPC request over a real socket with no `Accept` header at all; resolves once a stream's
 * first bytes came (it stays open), or with the whole body of any other answer.
 */
function rpc(body: object, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/a2a',
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.acme}`, 'content-type': 'application/json', ...headers },
      },
      (response) => {
        const abort = () => req.destroy();
        const answer = { status: response.statusCode ?? 0, headers: response.headers, abort };
        if (response.headers['content-type']?.startsWith('text/event-stream')) {
          open.push(abort);
          response.once('data', () => resolve(answer));
          return;
        }
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.once('end', () => resolve({ ...answer, body: JSON.parse(text) }));
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

const V1 = { 'a2a-version': '1.0' };
const subscribe = (taskId: string) => ({
  jsonrpc: '2.0',
  id: 'sub',
  method: 'SubscribeToTask',
  params: { id: taskId },
});

describe('A2A streams count against the stream cap whatever the Accept header', () => {
  it('refuses a headerless SubscribeToTask, resubscribe or SendStreamingMessage past the cap with 429, before anything starts', async () => {
    // a run that works for a while: its task can be subscribed to
    const started = await fx.json('/v1/runs', {
      body: { agentId: AGENT_ID, input: 'slow:30000', stream: false },
    });
    expect(started.status).toBe(202);
    const taskId: string = started.body.runId;

    const streams = await Promise.all(Array.from({ length: CAP }, () => rpc(subscribe(taskId), V1)));
    expect(streams.map((stream) => stream.status)).toEqual(Array(CAP).fill(200));
    expect(streams[0]?.headers['content-type']).toContain('text/event-stream');

    const refused = await rpc(subscribe(taskId), V1);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body.error.code).toBe('too_many_streams');
    // the v0.3 name (no A2A-Version header: a v0.3 request) is the same stream
    const resubscribe = await rpc({ ...subscribe(taskId), method: 'tasks/resubscribe' });
    expect(resubscribe.status).toBe(429);
    // a streaming message is refused before its run starts: its context never comes to be
    const send = await rpc(
      {
        jsonrpc: '2.0',
        id: 'send',
        method: 'SendStreamingMessage',
        params: {
          message: {
            messageId: 'capped-1',
            contextId: 'capped-context',
            role: 'ROLE_USER',
            parts: [{ text: 'plain' }],
          },
        },
      },
      V1,
    );
    expect(send.status).toBe(429);
    expect((await fx.json('/v1/threads/capped-context')).status).toBe(404);
    // what is not a stream is never refused
    const get = await rpc({ jsonrpc: '2.0', id: 'get', method: 'GetTask', params: { id: taskId } }, V1);
    expect(get.status).toBe(200);
    expect(get.body.result.id).toBe(taskId);

    // a client that goes away gives its slot back
    streams[0]?.abort();
    const again = await vi.waitFor(
      async () => {
        const answer = await rpc(subscribe(taskId), V1);
        expect(answer.status).toBe(200);
        return answer;
      },
      { timeout: 5_000, interval: 20 },
    );
    again.abort();
    await fx.json(`/v1/runs/${taskId}/cancel`, { body: {} });
  });
});
