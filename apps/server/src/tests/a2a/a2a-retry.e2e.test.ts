import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  a2aClient,
  answerText,
  collect,
  lastStatus,
  rpc,
  sendParams,
  taskJson,
  ticketsOf,
} from '../../../test-support/a2a-client';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';
import { retryingFetch, threadTally } from '../../../test-support/retrying-fetch';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
afterAll(async () => {
  await app?.stop();
});

const V1 = { 'a2a-version': '1.0' };
const invoice = (n: string) => [{ text: `send invoice ${n}` }];

/** Resolves once the context's thread has a run that is executing (the server took the message). */
const running = (contextId: string) => () =>
  vi.waitFor(
    async () => {
      const runs = await api(app.url, `/v1/threads/${contextId}/runs`);
      expect(runs.body?.items?.[0]?.status).toBe('running');
    },
    { timeout: 10_000, interval: 20 },
  );

describe('A2A: a message sent again is the same message (messageId is the idempotency key)', () => {
  it('SendMessage retried after its answer was lost: the task it created, completed; send_invoice ran once', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const retrying = retryingFetch({ taken: running(contextId) });
    const client = await a2aClient(app.url, { fetch: retrying.fetch });
    retrying.retryNext();
    const task = taskJson((await client.sendMessage(sendParams(invoice('77'), { contextId }))) as never);
    expect(retrying.retries()).toBe(1);
    expect(task).toMatchObject({ contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(task.artifacts[0].parts[0].text).toBe('Done: invoice 77 is sent.');
    expect(await threadTally(app.url, contextId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('a stream dropped after its first event, retried as SendMessage without a context: the same task', async () => {
    const client = await a2aClient(app.url);
    const params = sendParams(invoice('78'));
    const dropped = new AbortController();
    let first: Record<string, any> | undefined;
    await expect(
      (async () => {
        for await (const event of client.sendMessageStream(params, { signal: dropped.signal })) {
          first ??= (await collectOne(event)).task;
          dropped.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(first?.id).toBeDefined();
    // the same request: the same messageId, still no contextId
    const again = taskJson((await client.sendMessage(params)) as never);
    expect(again).toMatchObject({ id: first?.id, contextId: first?.contextId });
    expect(again.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await threadTally(app.url, first?.contextId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('SendStreamingMessage sent again while the task works re-attaches to its stream', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const retrying = retryingFetch();
    const client = await a2aClient(app.url, { fetch: retrying.fetch });
    retrying.retryNext();
    const events = await collect(client.sendMessageStream(sendParams(invoice('79'), { contextId })));
    expect(retrying.retries()).toBe(1);
    expect(events[0]?.task).toMatchObject({ contextId });
    expect(lastStatus(events)?.state).toBe('TASK_STATE_COMPLETED');
    expect(answerText(events)).toBe('Done: invoice 79 is sent.');
    expect(await threadTally(app.url, contextId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('the same message sent twice at once: one task, both answers name it; send_invoice ran once', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const params = sendParams(invoice('80'), { contextId });
    const [one, two] = await Promise.all(
      [0, 1].map(async () => taskJson((await (await a2aClient(app.url)).sendMessage(params)) as never)),
    );
    expect(one?.id).toBe(two?.id);
    expect([one?.status.state, two?.status.state]).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);
    expect(await threadTally(app.url, contextId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('the same messageId with other content is -32602 naming it; the first task stands alone', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const message = (text: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm-reused', contextId, role: 'ROLE_USER', parts: [{ text }] } },
    });
    const first = await rpc(`${app.url}/v1/a2a`, message('weather in Rome'), V1);
    expect(first.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const other = await rpc(`${app.url}/v1/a2a`, message('send invoice 81'), V1);
    expect(other.body.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('params.message.messageId'),
    });
    expect(other.body.error.message).toContain(first.body.result.task.id);
    expect(await threadTally(app.url, contextId)).toEqual({ runs: ['done'], invoices: 0 });
    // the same content again is the same message: the first task
    const again = await rpc(`${app.url}/v1/a2a`, message('weather in Rome'), V1);
    expect(again.body.result.task.id).toBe(first.body.result.task.id);
  });

  it('an answer sent again after the task completed answers with the task; the tool ran once', async () => {
    const client = await a2aClient(app.url);
    const asked = taskJson(
      (await client.sendMessage(sendParams([{ text: 'delete /tmp/retry.txt' }]))) as never,
    );
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [ticket] = ticketsOf(asked);
    const answer = sendParams([{ data: { approved: true, approvalId: ticket?.approvalId } }], {
      taskId: asked.id,
      contextId: asked.contextId,
    });
    const done = taskJson((await client.sendMessage(answer)) as never);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const again = taskJson((await client.sendMessage(answer)) as never);
    expect(again).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_COMPLETED' } });
    const streamed = await collect(client.sendMessageStream(answer));
    expect(streamed).toHaveLength(1);
    expect(streamed[0]?.task).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_COMPLETED' } });
    const messages = await api(app.url, `/v1/threads/${asked.contextId}/messages?limit=1000`);
    const results = messages.body.items.filter((item: any) => (item.message ?? item).role === 'tool');
    expect(results).toHaveLength(1);
  });
});

describe('A2A ids follow the id grammar of every door', () => {
  for (const contextId of ['ctx\nline', 'nul\u0000', 'crlf\r\n', '..']) {
    it(`context id ${JSON.stringify(contextId)}: -32602 naming params.message.contextId, no thread`, async () => {
      const before = (await api(app.url, '/v1/threads?limit=1000')).body.items.length;
      const refused = await rpc(
        `${app.url}/v1/a2a`,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'SendMessage',
          params: {
            message: { messageId: randomUUID(), contextId, role: 'ROLE_USER', parts: [{ text: 'hello' }] },
          },
        },
        V1,
      );
      expect(refused.body.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('params.message.contextId'),
      });
      expect((await api(app.url, '/v1/threads?limit=1000')).body.items.length).toBe(before);
      const get = await rpc(
        `${app.url}/v1/a2a`,
        { jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: contextId } },
        V1,
      );
      expect(get.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('params.id') });
    });
  }
});

async function collectOne(event: unknown): Promise<Record<string, any>> {
  const { StreamResponse } = await import('@a2a-js/sdk');
  return StreamResponse.toJSON(event as never) as Record<string, any>;
}
