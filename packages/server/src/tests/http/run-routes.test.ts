import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, createHttpFixture, parseSse, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

describe('runs', () => {
  it('streams a new run until it waits: ids are the seqs 1..n, the last event is run_finish', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    expect(run.ids).toEqual(run.events.map((_, index) => index + 1));
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    expect(run.events.some((event) => event.type === 'tool_call_suspended')).toBe(true);
  });

  it('with stream: false answers 202 with the ids, and the run goes on', async () => {
    const accepted = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 'plain', stream: false } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      runId: expect.any(String),
      threadId: expect.any(String),
      dispatchId: expect.any(String),
    });
    await vi.waitFor(async () => {
      expect((await fx.json(`/v1/runs/${accepted.body.runId}`)).body.status).toBe('done');
    }, WAIT);
  });

  it('refuses an unknown agent (404), a bad input (422 naming input), a thread with a waiting run (409)', async () => {
    const unknown = await fx.json('/v1/runs', { body: { agentId: 'nobody', input: 'hi' } });
    expect(unknown.status).toBe(404);
    const bad = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 42 } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('input');
    const waiting = await startRun(fx, { input: 'approve:1' });
    const busy = await fx.json('/v1/runs', {
      body: { agentId: 'ops', threadId: waiting.threadId, input: 'plain' },
    });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('conflict');
  });

  it("stores the caller as run context, next to the client's own context, which cannot claim another caller", async () => {
    const started = await fx.json('/v1/runs', {
      body: {
        agentId: 'ops',
        input: 'plain',
        stream: false,
        context: { team: 'ops', caller: 'someone else' },
      },
      headers: { 'x-request-id': 'req-ctx-1' },
    });
    const run = await fx.json(`/v1/runs/${started.body.runId}`);
    expect(run.body.context).toEqual({
      team: 'ops',
      caller: { tenant: 'acme', subject: 'alice', requestId: 'req-ctx-1' },
    });
    const bad = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 'plain', context: 'me' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('context');
  });

  it('gets a run without its internal state; 404 for an unknown run', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    const got = await fx.json(`/v1/runs/${run.runId}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ runId: run.runId, status: 'waiting' });
    expect(got.body.state).toBeUndefined();
    expect(got.body.waiting.tickets).toHaveLength(1);
    expect((await fx.json('/v1/runs/unknown-run')).status).toBe(404);
  });

  it('lists the runs of a thread by status; 422 for an unknown status; 404 for an unknown thread', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    await fx.call(`/v1/runs/${run.runId}/cancel`, { method: 'POST' });
    const second = await startRun(fx, { threadId: run.threadId, input: 'approve:1' });
    const waiting = await fx.json(`/v1/threads/${run.threadId}/runs?status=waiting`);
    expect(waiting.body.items.map((item: { runId: string }) => item.runId)).toEqual([second.runId]);
    const all = await fx.json(`/v1/threads/${run.threadId}/runs?status=waiting,done`);
    expect(all.body.items).toHaveLength(2);
    const bad = await fx.json(`/v1/threads/${run.threadId}/runs?status=sleeping`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('status');
    expect((await fx.json('/v1/threads/none/runs')).status).toBe(404);
  });

  it('shows the active run: the open run with its tickets, the executing one, or null', async () => {
    const run = await startRun(fx, { input: 'approve:2' });
    const open = await fx.json(`/v1/threads/${run.threadId}/active-run`);
    expect(open.body.activeRun).toMatchObject({ kind: 'open', runId: run.runId });
    expect(open.body.activeRun.tickets).toHaveLength(2);
    const slow = await fx.json('/v1/runs', { body: { agentId: 'ops', input: 'slow:3000', stream: false } });
    await vi.waitFor(async () => {
      const active = await fx.json(`/v1/threads/${slow.body.threadId}/active-run`);
      expect(active.body.activeRun).toMatchObject({ kind: 'active', runId: slow.body.runId });
    }, WAIT);
    await fx.call(`/v1/runs/${slow.body.runId}/cancel`, { method: 'POST' });
    await fx.json('/v1/threads', { body: { id: 'idle-thread' } });
    expect((await fx.json('/v1/threads/idle-thread/active-run')).body).toEqual({ activeRun: null });
    expect((await fx.json('/v1/threads/none/active-run')).status).toBe(404);
  });
});

describe('event streams', () => {
  it('resumes after Last-Event-ID (or ?after=), the header winning, without repeating an event', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    const last = run.ids.at(-1) ?? 0;
    const fromHeader = parseSse(
      await (
        await fx.call(`/v1/runs/${run.runId}/events?after=1`, { headers: { 'last-event-id': '3' } })
      ).text(),
    );
    expect(fromHeader.ids).toEqual(run.ids.filter((id) => id > 3));
    const fromQuery = parseSse(await (await fx.call(`/v1/runs/${run.runId}/events?after=5`)).text());
    expect(fromQuery.ids).toEqual(run.ids.filter((id) => id > 5));
    expect(fromQuery.ids.at(-1)).toBe(last);
  });

  it('after the wait, a reconnect gets keep-alives, then the continuation once a decision arrives', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    const last = run.ids.at(-1) ?? 0;
    const response = await fx.call(`/v1/runs/${run.runId}/events`, {
      headers: { 'last-event-id': String(last) },
    });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': keep-alive')) text += decoder.decode((await reader.read()).value);
    const ticket = run.events.find((event) => event.type === 'tool_call_suspended');
    const decided = await fx.json(`/v1/runs/${run.runId}/decision`, {
      body: {
        toolCallId: ticket?.type === 'tool_call_suspended' ? ticket.toolCallId : '',
        result: { approved: true },
      },
    });
    expect(decided.status).toBe(200);
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    const continued = parseSse(text);
    expect(continued.ids[0]).toBe(last + 1);
    expect(continued.events[0]).toMatchObject({ type: 'run_start', resumed: true });
    expect(continued.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
  });

  it('ends at once for a finished run read to its end; 422 for a Last-Event-ID that is not a seq; 404 for an unknown run', async () => {
    const run = await startRun(fx, { input: 'plain' });
    const done = await fx.call(`/v1/runs/${run.runId}/events`, {
      headers: { 'last-event-id': String(run.ids.at(-1)) },
    });
    expect(done.status).toBe(200);
    expect(parseSse(await done.text()).ids).toEqual([]);
    const bad = await fx.json(`/v1/runs/${run.runId}/events`, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('Last-Event-ID');
    expect((await fx.json('/v1/runs/missing/events')).status).toBe(404);
  });

  it('a reconnect to a finished run read to its end closes at once, not after a keep-alive interval', async () => {
    const slowKeepAlive = await createHttpFixture({ keepAliveMs: 120_000 });
    try {
      const run = await startRun(slowKeepAlive, { input: 'plain' });
      const response = await slowKeepAlive.call(`/v1/runs/${run.runId}/events`, {
        headers: { 'last-event-id': String(run.ids.at(-1)) },
      });
      expect(parseSse(await response.text())).toEqual({ ids: [], events: [], comments: 1 });
    } finally {
      await slowKeepAlive.close();
    }
  });

  it('a client that goes away does not cancel the run', async () => {
    const response = await fx.call('/v1/runs', { body: { agentId: 'ops', input: 'slow:300 then plain' } });
    const runId = response.headers.get('x-run-id') ?? '';
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    await vi.waitFor(async () => {
      const run = await fx.json(`/v1/runs/${runId}`);
      expect(run.body).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    }, WAIT);
  });
  it('runs a client tool declared in the request: the call waits, the caller answers with a decision', async () => {
    const tools = [{ name: 'pick_color', description: 'the user picks', parameters: { type: 'object' } }];
    const run = await startRun(fx, { input: 'client', tools });
    const suspended = run.events.find((event) => event.type === 'tool_call_suspended');
    expect(suspended).toMatchObject({ ticket: { suspension: { action: 'client_tool' } } });
    expect((await fx.json(`/v1/runs/${run.runId}`)).body.clientTools).toEqual([{ ...tools[0] }]);
    const decided = await fx.json(`/v1/runs/${run.runId}/decisions`, {
      body: {
        decisions: [
          {
            toolCallId: (suspended as { toolCallId: string }).toolCallId,
            result: { color: 'teal' },
          },
        ],
      },
    });
    expect(decided.body).toMatchObject({ receipts: [{ status: 'accepted' }] });
    await vi.waitFor(async () => {
      expect((await fx.json(`/v1/runs/${run.runId}`)).body.status).toBe('done');
    }, WAIT);
    const bad = await fx.json('/v1/runs', {
      body: { agentId: 'ops', input: 'client', tools: [{ name: 'x' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('tools.0.parameters');
  });
});
