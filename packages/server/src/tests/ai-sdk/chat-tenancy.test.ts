import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHAT,
  approvalPart,
  askedTurn,
  continuation,
  readChat,
  userMessage,
} from '../../../test-support/chat-fixture';
import { type HttpFixture, TOKENS, createHttpFixture } from '../../../test-support/http-fixture';

const WAIT = { timeout: 10_000, interval: 20 };

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

async function ask(chatId: string, text: string, token: string = TOKENS.acme) {
  const body = { id: chatId, trigger: 'submit-message', messages: [userMessage(text)] };
  return askedTurn(chatId, text, await readChat(await fx.call(CHAT, { body, token })));
}

describe('the chat routes of one tenant are out of reach of another', () => {
  it("another tenant can neither continue, follow nor stop a tenant's chat, waiting or executing", async () => {
    const waiting = await ask('tenancy-waiting', 'approve:1 #tenancy');
    const [call] = waiting.calls;
    // an executing run: its turn 1 is streaming (the slow tool sleeps)
    const executing = new AbortController();
    const started = await fx.call(CHAT, {
      body: { id: 'tenancy-executing', trigger: 'submit-message', messages: [userMessage('slow:60000')] },
    });
    const runId = started.headers.get('x-run-id') ?? '';
    executing.signal.addEventListener('abort', () => void started.body?.cancel());

    const globex = { token: TOKENS.globex };
    const forged = continuation(waiting, [approvalPart(call!, true)]);
    for (const path of [CHAT, '/v1/ai-sdk/chat']) {
      const response = await fx.json(path, { body: { ...forged, agentId: 'ops' }, ...globex });
      expect({ path, status: response.status, code: response.body.error.code }).toEqual({
        path,
        status: 404,
        code: 'not_found',
      });
    }
    for (const chatId of [waiting.chatId, 'tenancy-executing']) {
      // resumeStream of a chat this tenant does not have: nothing to resume, as for any unknown chat
      const stream = await fx.call(`/v1/ai-sdk/chat/${chatId}/stream`, globex);
      expect({ chatId, status: stream.status }).toEqual({ chatId, status: 204 });
      const cancel = await fx.json(`/v1/ai-sdk/chat/${chatId}/cancel`, { method: 'POST', ...globex });
      expect({ chatId, status: cancel.status, code: cancel.body.error?.code }).toEqual({
        chatId,
        status: 404,
        code: 'not_found',
      });
    }
    // without a valid token, every route is 401
    for (const token of [null, 'not-a-configured-token-at-all']) {
      const requests: Array<[string, string, unknown?]> = [
        ['POST', CHAT, forged],
        ['POST', '/v1/ai-sdk/chat', { ...forged, agentId: 'ops' }],
        ['GET', `/v1/ai-sdk/chat/${waiting.chatId}/stream`],
        ['POST', `/v1/ai-sdk/chat/${waiting.chatId}/cancel`],
      ];
      for (const [method, path, body] of requests) {
        const response = await fx.call(path, { method, ...(body === undefined ? {} : { body }), token });
        expect({ path, status: response.status }).toEqual({ path, status: 401 });
      }
    }
    // acme's runs are as they were: the waiting call never ran, the executing run still executes
    expect((await fx.json(`/v1/runs/${waiting.messageId}`)).body.status).toBe('waiting');
    expect(await fx.counters.get(`exec:${waiting.messageId}:${call!.toolCallId}`)).toBe(0);
    expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('running');
    executing.abort();
    const stopped = await fx.json('/v1/ai-sdk/chat/tenancy-executing/cancel', { method: 'POST' });
    expect(stopped).toMatchObject({ status: 200, body: { runId, status: 'done' } });
    await vi.waitFor(async () => {
      expect((await fx.json(`/v1/runs/${runId}`)).body.termination).toMatchObject({ type: 'cancelled' });
    }, WAIT);
  });

  it('cancel of a chat that does not exist is a 404; of a chat with nothing running, a 200 naming no run', async () => {
    const unknown = await fx.json('/v1/ai-sdk/chat/no-such-chat/cancel', { method: 'POST' });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    const turn = await ask('cancel-twice', 'approve:1 #cancel');
    const first = await fx.json('/v1/ai-sdk/chat/cancel-twice/cancel', { method: 'POST' });
    expect(first).toMatchObject({ status: 200, body: { runId: turn.messageId, status: 'done' } });
    const again = await fx.json('/v1/ai-sdk/chat/cancel-twice/cancel', { method: 'POST' });
    expect(again).toEqual({ status: 200, body: { runId: null, status: null } });
  });
});
