import { randomUUID } from 'node:crypto';
import type { AwakenAgent } from '@awaken/protocol-ag-ui/client';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { assistantText, createAgent, wireProblems } from '../../../test-support/ag-ui-client';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';

const WAIT = { timeout: 15_000, interval: 20 };

let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `agui-${randomUUID().slice(0, 8)}`,
    AWAKEN_DEMO_DELAY_MS: '15',
    AWAKEN_KEEPALIVE_MS: '200',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

/** Starts a run on `app` and drops the connection once some text streamed. */
async function startThenDrop(app: AppProcess, threadId: string, prompt: string): Promise<void> {
  const abort = new AbortController();
  const response = await fetch(`${app.url}/v1/ag-ui/agents/demo/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      threadId,
      runId: randomUUID(),
      messages: [{ id: 'u1', role: 'user', content: prompt }],
    }),
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  let seen = '';
  while (!seen.includes('TEXT_MESSAGE_CONTENT')) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error('the run ended before any text');
    seen += new TextDecoder().decode(chunk.value);
  }
  abort.abort();
}

describe('AG-UI durable reconnect and stop (two processes, one Redis)', () => {
  it('the connection dropped mid-run: AwakenAgent.connectAgent() on the other process sees the whole run, nothing lost or repeated', async () => {
    const threadId = `t-${randomUUID()}`;
    await startThenDrop(a, threadId, 'count to 150');
    // the reconnect joins a run still working
    expect((await api(b.url, `/v1/threads/${threadId}/runs`)).body.items[0]?.status).toBe('running');
    const { agent, events } = createAgent({ url: b.url, threadId, awaken: true });
    await (agent as AwakenAgent).connectAgent();
    const expected = `${Array.from({ length: 150 }, (_, index) => index + 1).join(' ')}.`;
    expect(agent.messages.map((message) => [message.id, message.role])).toEqual([
      ['u1', 'user'],
      [expect.any(String), 'assistant'],
    ]);
    expect(assistantText(agent.messages)).toBe(expected);
    expect(events.filter((event) => event.type === 'TEXT_MESSAGE_START')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('a reconnect to a waiting run replays it and ends with its interrupt; a thread with nothing running streams nothing', async () => {
    const threadId = `t-${randomUUID()}`;
    const first = createAgent({ url: a.url, threadId });
    first.agent.addMessage({ id: 'u1', role: 'user', content: 'delete /tmp/reload.txt' });
    await first.agent.runAgent();
    const { agent } = createAgent({ url: b.url, threadId, awaken: true });
    await (agent as AwakenAgent).connectAgent();
    expect(agent.pendingInterrupts.map((interrupt) => interrupt.id)).toEqual(
      first.agent.pendingInterrupts.map((interrupt) => interrupt.id),
    );
    expect(agent.messages).toEqual(first.agent.messages);

    const idle = createAgent({ url: b.url, threadId: `t-${randomUUID()}`, awaken: true });
    await (idle.agent as AwakenAgent).connectAgent();
    expect(idle.events).toEqual([]);
  });

  it('stop() from the other process cancels the run: the running client ends with outcome cancelled', async () => {
    const threadId = `t-${randomUUID()}`;
    const runner = createAgent({ url: a.url, threadId, awaken: true });
    runner.agent.addMessage({ id: 'u1', role: 'user', content: 'count to 500' });
    const running = runner.agent.runAgent();
    await vi.waitFor(() => expect(assistantText(runner.agent.messages).length).toBeGreaterThan(5), WAIT);
    const stopper = createAgent({ url: b.url, threadId, awaken: true });
    expect(await (stopper.agent as AwakenAgent).stop()).toMatchObject({ status: 'done' });
    await running;
    expect(runner.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(await (stopper.agent as AwakenAgent).stop()).toEqual({ runId: null, status: null });
  });
});
