import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assistantText,
  checkAgUiBody,
  createAgent,
  lastRun,
  wireProblems,
} from '../../../test-support/ag-ui-client';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';
import { retryingFetch, threadTally } from '../../../test-support/retrying-fetch';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
});
afterAll(async () => {
  await app?.stop();
});

/** One `RunAgentInput` POST, as `HttpAgent` sends it; its events checked on the wire. */
async function post(body: Record<string, unknown>) {
  const response = await fetch(`${app.url}/v1/ag-ui/agents/demo/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ tools: [], context: [], ...body }),
  });
  return checkAgUiBody('raw', await response.text());
}

describe('AG-UI: the same request sent again (same threadId, runId and user message) is one run', () => {
  it('HttpAgent whose answer was lost sends the request again: the run replayed, send_invoice ran once', async () => {
    const retrying = retryingFetch();
    const { agent, events } = createAgent({ url: app.url, fetch: retrying.fetch });
    agent.addMessage({ id: `u-${randomUUID()}`, role: 'user', content: 'send invoice 91' });
    retrying.retryNext();
    await agent.runAgent();
    expect(retrying.retries()).toBe(1);
    expect(assistantText(agent.messages)).toContain('Done: invoice 91 is sent.');
    expect(lastRun(events).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(await threadTally(app.url, agent.threadId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('sent again while its run waits for an approval: the run replayed with its interrupt, not an error', async () => {
    const threadId = `agui-${randomUUID()}`;
    const request = {
      threadId,
      runId: `run-${randomUUID()}`,
      messages: [{ id: 'u1', role: 'user', content: 'delete /tmp/agui-retry.txt' }],
    };
    const first = await post(request);
    expect(first.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const again = await post(request);
    expect(again.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    expect(again.at(-1)?.outcome.interrupts.map((interrupt: any) => interrupt.id)).toEqual(
      first.at(-1)?.outcome.interrupts.map((interrupt: any) => interrupt.id),
    );
    expect(await threadTally(app.url, threadId)).toEqual({ runs: ['waiting'], invoices: 0 });
  });

  it('a client that pins one runId for every message: each message sent twice is still one run', async () => {
    const threadId = `agui-${randomUUID()}`;
    const runId = `pinned-${randomUUID()}`;
    const first = { threadId, runId, messages: [{ id: 'u1', role: 'user', content: 'weather in Rome' }] };
    await post(first);
    const second = {
      threadId,
      runId,
      messages: [...first.messages, { id: 'u2', role: 'user', content: 'send invoice 92' }],
    };
    const [one, two] = await Promise.all([post(second), post(second)]);
    for (const events of [one, two]) expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(await threadTally(app.url, threadId)).toEqual({ runs: ['done', 'done'], invoices: 1 });
    await post(second);
    expect(await threadTally(app.url, threadId)).toEqual({ runs: ['done', 'done'], invoices: 1 });
  });

  it('the same request twice at once: one run, both streams end', async () => {
    const threadId = `agui-${randomUUID()}`;
    const request = {
      threadId,
      runId: `run-${randomUUID()}`,
      messages: [{ id: 'u1', role: 'user', content: 'send invoice 93' }],
    };
    const answers = await Promise.all([post(request), post(request)]);
    for (const events of answers) expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(await threadTally(app.url, threadId)).toEqual({ runs: ['done'], invoices: 1 });
  });
});
