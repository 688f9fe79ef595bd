import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { a2aClient, sendParams, taskJson } from '../../../test-support/a2a-client';
import { checkAgUiBody } from '../../../test-support/ag-ui-client';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';
import { retryingFetch, threadTally } from '../../../test-support/retrying-fetch';

let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `e2e-retry-${randomUUID().slice(0, 8)}`,
    AWAKEN_DEMO_DELAY_MS: '5',
    AWAKEN_LEASE_MS: '5000',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const post = (app: AppProcess, path: string, body: unknown) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Two server processes on one Redis: each door's request sent to both is one run. */
describe("each door's retry on two server processes sharing one Redis", () => {
  it('A2A: SendMessage to A, its answer lost, sent again to B: the same task; send_invoice ran once', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const retrying = retryingFetch({
      retryTo: (url) => url.replace(a.url, b.url),
      taken: () =>
        vi.waitFor(
          async () =>
            expect((await api(a.url, `/v1/threads/${contextId}/runs`)).body?.items?.[0]?.status).toBe(
              'running',
            ),
          { timeout: 10_000, interval: 20 },
        ),
    });
    const client = await a2aClient(a.url, { fetch: retrying.fetch });
    retrying.retryNext();
    const task = taskJson(
      (await client.sendMessage(sendParams([{ text: 'send invoice 100' }], { contextId }))) as never,
    );
    expect(retrying.retries()).toBe(1);
    expect(task).toMatchObject({ contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(await threadTally(a.url, contextId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('A2A: the same message to A and to B at once: one task, both answers name it', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const params = sendParams([{ text: 'send invoice 101' }], { contextId });
    const tasks = await Promise.all(
      [a, b].map(async (app) => taskJson((await (await a2aClient(app.url)).sendMessage(params)) as never)),
    );
    expect(tasks[0]?.id).toBe(tasks[1]?.id);
    expect(tasks.map((task) => task.status.state)).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);
    expect(await threadTally(b.url, contextId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('AI SDK: the same chat message to A and to B at once: one run', async () => {
    const chatId = `chat-${randomUUID()}`;
    const body = {
      id: chatId,
      trigger: 'submit-message',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'send invoice 102' }] }],
    };
    const answers = await Promise.all([a, b].map((app) => post(app, '/v1/ai-sdk/chat', body)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('"type":"finish"');
    }
    expect(await threadTally(a.url, chatId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('AG-UI: the same RunAgentInput to A and to B at once: one run', async () => {
    const threadId = `agui-${randomUUID()}`;
    const body = {
      threadId,
      runId: `run-${randomUUID()}`,
      tools: [],
      context: [],
      messages: [{ id: 'u1', role: 'user', content: 'send invoice 103' }],
    };
    const answers = await Promise.all([a, b].map((app) => post(app, '/v1/ag-ui/agents/demo/run', body)));
    for (const answer of answers) {
      expect(checkAgUiBody('redis', await answer.text()).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    }
    expect(await threadTally(b.url, threadId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('REST: the same POST /v1/runs with its runId to A and to B at once: one run, the other 409', async () => {
    const threadId = `thread-${randomUUID()}`;
    const runId = `run-${randomUUID()}`;
    const body = { agentId: 'demo', threadId, runId, input: 'send invoice 104', stream: false };
    const answers = await Promise.all([a, b].map((app) => post(app, '/v1/runs', body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    await vi.waitFor(async () => expect((await api(a.url, `/v1/runs/${runId}`)).body.status).toBe('done'), {
      timeout: 15_000,
      interval: 50,
    });
    expect(await threadTally(a.url, threadId)).toEqual({ runs: ['done'], invoices: 1 });
  });
});
