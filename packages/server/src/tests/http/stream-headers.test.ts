import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture({ a2a: { agents: [{ id: AGENT_ID }] } });
});
afterAll(() => fx.close());

const NAMES = [
  'content-type',
  'cache-control',
  'connection',
  'x-accel-buffering',
  'x-vercel-ai-ui-message-stream',
];

/** The stream headers of a response (null where absent), its body read to the end. */
async function streamHeaders(response: Response): Promise<Record<string, string | null>> {
  expect(response.status).toBe(200);
  await response.body?.cancel();
  return Object.fromEntries(NAMES.map((name) => [name, response.headers.get(name)]));
}

/** What the native streams and A2A send: the server's one SSE header set. */
const SERVER = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
  'x-vercel-ai-ui-message-stream': null,
};
/** The AG-UI and AI SDK streams keep the header sets of their protocols' reference servers. */
const AG_UI = { ...SERVER, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const AI_SDK = { ...AG_UI, 'x-vercel-ai-ui-message-stream': 'v1' };

describe('every event stream is answered through the one SSE response', () => {
  it('native run events and the inbox carry the server set; each protocol its own', async () => {
    const started = await fx.call('/v1/runs', { body: { agentId: AGENT_ID, input: 'hello #headers' } });
    const runId = started.headers.get('x-run-id');
    expect(await streamHeaders(started)).toEqual(SERVER);
    expect(await streamHeaders(await fx.call(`/v1/runs/${runId}/events`))).toEqual(SERVER);
    expect(await streamHeaders(await fx.call('/v1/inbox/events'))).toEqual(SERVER);

    const chat = await fx.call(`/v1/ai-sdk/agents/${AGENT_ID}/chat`, {
      body: {
        id: 'headers-chat',
        trigger: 'submit-message',
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
      },
    });
    expect(chat.headers.get('x-thread-id')).toBe('headers-chat');
    expect(await streamHeaders(chat)).toEqual(AI_SDK);

    const agUi = await fx.call(`/v1/ag-ui/agents/${AGENT_ID}/run`, {
      body: {
        threadId: 'headers-ag-ui',
        runId: 'headers-ag-ui-1',
        messages: [{ id: 'u1', role: 'user', content: 'hi' }],
      },
    });
    expect(agUi.headers.get('x-thread-id')).toBe('headers-ag-ui');
    expect(await streamHeaders(agUi)).toEqual(AG_UI);

    const a2a = await fx.call('/v1/a2a', {
      headers: { accept: 'text/event-stream', 'a2a-version': '1.0' },
      body: {
        jsonrpc: '2.0',
        id: 'headers-1',
        method: 'SendStreamingMessage',
        params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
      },
    });
    expect(a2a.headers.get('x-run-id')).toBeTruthy();
    expect(await streamHeaders(a2a)).toEqual(SERVER);
  });
});
