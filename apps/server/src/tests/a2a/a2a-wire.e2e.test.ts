import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from '../../../test-support/a2a-client';
import { type AppProcess, readSse, startAppProcess } from '../../../test-support/app-process';

let app: AppProcess;
let endpoint: string;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
  endpoint = `${app.url}/v1/a2a`;
});
afterAll(async () => {
  await app?.stop();
});

const V1 = { 'a2a-version': '1.0' };
/** A new message (each its own `messageId`: the same id again would be the same message, retried). */
const send = (text: string, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 'req-1',
  method: 'SendMessage',
  params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra } },
});

describe('agent cards', () => {
  for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
    it(`${path}: v1.0 with A2A-Version 1.0, v0.3 without, Vary: A2A-Version`, async () => {
      const v1 = await fetch(`${app.url}${path}`, { headers: V1 });
      expect(v1.headers.get('vary')).toMatch(/A2A-Version/i);
      const card = await v1.json();
      expect(card).toMatchObject({
        name: 'demo',
        capabilities: { streaming: true, pushNotifications: false },
        supportedInterfaces: [
          { url: `${app.url}/v1/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      });
      expect(card.skills.map((skill: any) => skill.id)).toEqual([
        'get_weather',
        'delete_file',
        'choose_color',
        'restart_service',
        'send_invoice',
        'janitor',
        'archivist',
        'transfer_to_billing',
      ]);
      expect(card.capabilities.extensions[0].description).toMatch(/tool-approval-request/);
      const old = await (await fetch(`${app.url}${path}`)).json();
      expect(old).toMatchObject({
        protocolVersion: '0.3',
        url: `${app.url}/v1/a2a`,
        preferredTransport: 'JSONRPC',
      });
      expect(old.supportedInterfaces).toBeUndefined();
    });
  }

  it('one card per agent; an unknown agent has none; an unknown version is refused', async () => {
    const card = await (
      await fetch(`${app.url}/v1/a2a/agents/demo/.well-known/agent-card.json`, { headers: V1 })
    ).json();
    expect(card.supportedInterfaces[0].url).toBe(`${app.url}/v1/a2a/agents/demo`);
    expect((await fetch(`${app.url}/v1/a2a/agents/nobody/.well-known/agent-card.json`)).status).toBe(404);
    const future = await fetch(`${app.url}/.well-known/agent-card.json`, {
      headers: { 'a2a-version': '2.0' },
    });
    expect(future.status).toBe(400);
  });
});

describe('JSON-RPC errors with the spec codes', () => {
  it('bad envelopes, methods, versions and params', async () => {
    expect((await rpc(endpoint, '{nope', V1)).body.error.code).toBe(-32700);
    expect((await rpc(endpoint, { jsonrpc: '1.0', id: 1, method: 'GetTask' }, V1)).body.error.code).toBe(
      -32600,
    );
    const unknown = await rpc(endpoint, { jsonrpc: '2.0', id: 2, method: 'DoThings', params: {} }, V1);
    expect(unknown.body).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32601 } });
    // a v1.0 name without the header is a v0.3 request, where it does not exist
    const noHeader = await rpc(endpoint, { jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: 'x' } });
    expect(noHeader.body.error).toMatchObject({
      code: -32601,
      message: expect.stringMatching(/A2A-Version: 1.0/),
    });
    const version = await rpc(endpoint, send('hi'), { 'a2a-version': '2.0' });
    expect(version.body.error.code).toBe(-32009);
    const params = await rpc(endpoint, { jsonrpc: '2.0', id: 4, method: 'GetTask', params: { id: 7 } }, V1);
    expect(params.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/params\.id/) });
    const parts = await rpc(endpoint, send('hi', { parts: [] }), V1);
    expect(parts.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\.message\.parts/),
    });
    const file = await rpc(
      endpoint,
      send('hi', { parts: [{ url: 'https://x.test/a.png', mediaType: 'image/png' }] }),
      V1,
    );
    expect(file.body.error.code).toBe(-32005);
    const push = await rpc(
      endpoint,
      { jsonrpc: '2.0', id: 5, method: 'CreateTaskPushNotificationConfig', params: {} },
      V1,
    );
    expect(push.body.error.code).toBe(-32003);
    const missing = await rpc(
      endpoint,
      { jsonrpc: '2.0', id: 6, method: 'GetTask', params: { id: 'no-such-task' } },
      V1,
    );
    expect(missing.body.error.code).toBe(-32001);
  });

  it('ListTasks of an unknown context is empty; a bad page token names the field', async () => {
    const list = (params: object) =>
      rpc(endpoint, { jsonrpc: '2.0', id: 8, method: 'ListTasks', params }, V1);
    expect((await list({ contextId: 'no-such-context' })).body.result).toMatchObject({
      tasks: [],
      totalSize: 0,
    });
    expect((await list({ pageToken: 'x' })).body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\.pageToken/),
    });
  });

  it('a text reply to a waiting task is refused and the task keeps waiting', async () => {
    const asked = await rpc(endpoint, send('delete /tmp/w.txt'), V1);
    const task = asked.body.result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const reply = await rpc(endpoint, send('yes', { taskId: task.id, contextId: task.contextId }), V1);
    expect(reply.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/data part/) });
    const forged = await rpc(
      endpoint,
      {
        ...send('x'),
        params: {
          message: {
            messageId: 'm2',
            role: 'ROLE_USER',
            taskId: task.id,
            parts: [{ data: { approved: true, approvalId: 'not-a-ticket' } }],
          },
        },
      },
      V1,
    );
    expect(forged.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/parts\.0\.data/),
    });
    const wrongContext = await rpc(
      endpoint,
      send('x', { taskId: task.id, contextId: 'another-context' }),
      V1,
    );
    expect(wrongContext.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/contextId/),
    });
    // a new message on the context while its task waits: refused, the waiting task named
    const busy = await rpc(endpoint, send('weather in Rome', { contextId: task.contextId }), V1);
    expect(busy.body.error).toMatchObject({ code: -32004, message: expect.stringContaining(task.id) });
    const still = await rpc(
      endpoint,
      { jsonrpc: '2.0', id: 9, method: 'GetTask', params: { id: task.id } },
      V1,
    );
    expect(still.body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('return_immediately answers the submitted task at once', async () => {
    const quick = await rpc(
      endpoint,
      {
        ...send('weather in Oslo'),
        params: { ...send('weather in Oslo').params, configuration: { returnImmediately: true } },
      },
      V1,
    );
    expect(quick.body.result.task.status.state).toBe('TASK_STATE_SUBMITTED');
  });
});

describe('v0.3 clients (no A2A-Version header, v0.3 names and shapes)', () => {
  it('message/stream to input-required with final: true, then an answer on the same task completes it', async () => {
    const request = {
      jsonrpc: '2.0',
      id: 41,
      method: 'message/stream',
      params: {
        message: {
          kind: 'message',
          messageId: 'v03-1',
          role: 'user',
          parts: [{ kind: 'text', text: 'delete /tmp/old.txt' }],
        },
      },
    };
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(request),
    });
    const { events } = await readSse(response);
    expect(events.every((event) => event.id === 41 && event.jsonrpc === '2.0')).toBe(true);
    const results = events.map((event) => event.result);
    expect(results[0]).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    const last = results.at(-1);
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'input-required' } });
    const ticket = last.status.message.parts.find((part: any) => part.kind === 'data').data;
    expect(ticket.type).toBe('tool-approval-request');
    const answer = await rpc(endpoint, {
      jsonrpc: '2.0',
      id: 42,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: 'v03-2',
          role: 'user',
          taskId: results[0].id,
          contextId: results[0].contextId,
          parts: [{ kind: 'data', data: { approved: true, approvalId: ticket.approvalId } }],
        },
      },
    });
    expect(answer.body.result).toMatchObject({
      kind: 'task',
      id: results[0].id,
      status: { state: 'completed' },
    });
    const got = await rpc(endpoint, {
      jsonrpc: '2.0',
      id: 43,
      method: 'tasks/get',
      params: { id: results[0].id },
    });
    expect(got.body.result.artifacts[0].parts[0]).toEqual({
      kind: 'text',
      text: 'I will delete /tmp/old.txt. Done: I deleted /tmp/old.txt.',
      metadata: undefined,
    });
  });
});
