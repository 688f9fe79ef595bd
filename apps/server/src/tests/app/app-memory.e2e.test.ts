import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
afterAll(async () => {
  await app.stop();
});

const WAIT = { timeout: 15_000, interval: 25 };

async function start(
  input: string,
): Promise<{ runId: string; threadId: string; ids: number[]; events: any[] }> {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const stream = await readSse(response);
  return {
    runId: response.headers.get('x-run-id') ?? '',
    threadId: response.headers.get('x-thread-id') ?? '',
    ...stream,
  };
}

describe('the reference server on memory stores, over real HTTP', () => {
  it('says at start that it is open (no token) and listens on loopback', () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const warning = app.logs.find((entry) => String(entry.msg).includes('no AWAKEN_TOKENS'));
    expect(warning).toBeDefined();
    expect(app.logs.find((entry) => entry.msg === 'awaken server listening')).toMatchObject({
      stores: 'memory',
      model: expect.stringContaining('demo'),
    });
  });

  it('refuses to start open (no token) on a non-loopback address, naming the variable', async () => {
    const refused = startAppProcess({ HOST: '0.0.0.0' });
    await expect(refused).rejects.toThrow(/HOST: without AWAKEN_TOKENS/);
  });

  it('a run waits for approval (its stream ends), the decision comes on a new request, the continuation streams', async () => {
    const run = await start('delete /tmp/report.txt');
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const active = await api(app.url, `/v1/threads/${run.threadId}/active-run`);
    const ticket = active.body.activeRun.tickets[0];
    expect(ticket).toMatchObject({
      toolName: 'delete_file',
      action: 'confirm',
      arguments: { path: '/tmp/report.txt' },
    });
    const decided = await api(app.url, `/v1/runs/${run.runId}/decision`, {
      body: { ticketId: ticket.ticketId, decisionId: 'approve-1', result: { approved: true } },
    });
    expect(decided.body.receipts[0].status).toBe('accepted');
    const last = run.ids.at(-1) ?? 0;
    const continuation = await readSse(
      await fetch(`${app.url}/v1/runs/${run.runId}/events`, { headers: { 'last-event-id': String(last) } }),
    );
    expect(continuation.ids[0]).toBe(last + 1);
    expect(continuation.events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'done',
      response: 'Done: I deleted /tmp/report.txt.',
    });
    const whole = await readSse(await fetch(`${app.url}/v1/runs/${run.runId}/events?after=0`));
    expect(whole.ids).toEqual([...run.ids]);
  });

  it('a handoff: the billing agent answers, the stream shows it, GET /v1/runs/:id names the active agent', async () => {
    const run = await start('transfer me to billing');
    expect(run.events.find((event) => event.type === 'handoff')).toMatchObject({
      fromAgentId: 'demo',
      toAgentId: 'billing',
      step: 1,
      reason: 'the user asked for billing',
    });
    expect(run.events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'done',
      response: 'This is billing: you were transferred to me. How can I help?',
    });
    const got = await api(app.url, `/v1/runs/${run.runId}`);
    expect(got.body).toMatchObject({
      agentId: 'demo',
      activeAgentId: 'billing',
      handoffs: [{ fromAgentId: 'demo', toAgentId: 'billing', step: 1 }],
    });
  });

  it('a denial is answered without running the tool; a denied path is refused by rule without asking', async () => {
    const run = await start('delete /tmp/keep.txt');
    const ticket = run.events.find((event) => event.type === 'tool_call_suspended');
    await api(app.url, `/v1/runs/${run.runId}/decision`, {
      body: { toolCallId: ticket.toolCallId, result: { approved: false, reason: 'keep it' } },
    });
    const done = await vi.waitFor(async () => {
      const got = await api(app.url, `/v1/runs/${run.runId}`);
      expect(got.body.status).toBe('done');
      return got.body;
    }, WAIT);
    expect(done.response).toMatch(/^I did not run delete_file/);
    const refused = await start('delete /etc/passwd');
    expect(refused.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    expect(refused.events.at(-1)?.response).toMatch(/I did not run delete_file/);
  });

  it('an approval with edited arguments runs the tool with the edits, and the agent says so', async () => {
    const run = await start('delete /tmp/draft.txt');
    const ticket = run.events.find((event) => event.type === 'tool_call_suspended');
    const decided = await api(app.url, `/v1/runs/${run.runId}/decision`, {
      body: {
        toolCallId: ticket.toolCallId,
        result: { approved: true, editedArguments: { path: '/tmp/draft-old.txt' } },
      },
    });
    expect(decided.status).toBe(200);
    await vi.waitFor(async () => {
      expect((await api(app.url, `/v1/runs/${run.runId}`)).body.response).toBe(
        'Done: I deleted /tmp/draft-old.txt.',
      );
    }, WAIT);
  });

  it('a client tool waits for the client, whose answer becomes the result', async () => {
    const run = await start('pick a color');
    const suspended = run.events.find((event) => event.type === 'tool_call_suspended');
    expect(suspended).toMatchObject({
      toolName: 'choose_color',
      ticket: { suspension: { action: 'client_tool' } },
    });
    await api(app.url, `/v1/runs/${run.runId}/decision`, {
      body: { toolCallId: suspended.toolCallId, result: { color: 'green' } },
    });
    await vi.waitFor(async () => {
      expect((await api(app.url, `/v1/runs/${run.runId}`)).body.response).toBe(
        'You chose green. Nice choice!',
      );
    }, WAIT);
  });

  it('logs one JSON line per request with request id, tenant and ids, never the message content', async () => {
    const run = await start('weather in Lisbon');
    expect(run.events.at(-1)?.response).toMatch(/in Lisbon/);
    await vi.waitFor(() => {
      const line = app.logs.find((entry) => entry.msg === 'request' && entry.runId === run.runId);
      expect(line).toMatchObject({
        requestId: expect.any(String),
        tenant: 'default',
        route: '/v1/runs',
        status: 200,
      });
    }, WAIT);
    const text = app.output();
    expect(text).not.toContain('Lisbon');
    expect(text).not.toContain('report.txt');
  });
});
