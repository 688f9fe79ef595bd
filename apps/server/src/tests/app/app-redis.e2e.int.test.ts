import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ACME = 'acme-e2e-token-0123456789';
const GLOBEX = 'globex-e2e-token-0123456789';

let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `e2e-${randomUUID().slice(0, 8)}`,
    AWAKEN_TOKENS: `${ACME}:acme:alice,${GLOBEX}:globex`,
    AWAKEN_DEMO_DELAY_MS: '15',
    AWAKEN_LEASE_MS: '3000',
    AWAKEN_KEEPALIVE_MS: '200',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

function post(app: AppProcess, input: string, token = ACME): Promise<Response> {
  return fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
}

function events(app: AppProcess, runId: string, lastEventId: number, token = ACME): Promise<Response> {
  return fetch(`${app.url}/v1/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${token}`, 'last-event-id': String(lastEventId) },
  });
}

describe('two server processes on one Redis', () => {
  it('a stream cut mid-run resumes with Last-Event-ID on the same and on the other process: no event lost or repeated', async () => {
    const response = await post(a, 'count to 60');
    const runId = response.headers.get('x-run-id') ?? '';
    const first = await readSse(response, { stopAfter: 8 });
    const second = await readSse(await events(a, runId, first.ids.at(-1) ?? 0), { stopAfter: 10 });
    const third = await readSse(await events(b, runId, second.ids.at(-1) ?? 0));
    const ids = [...first.ids, ...second.ids, ...third.ids];
    expect(ids).toEqual(ids.map((_, index) => index + 1));
    expect(third.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    const text = [...first.events, ...second.events, ...third.events]
      .filter((event) => event.type === 'text_delta')
      .map((event) => event.delta)
      .join('');
    expect(text).toBe(`${Array.from({ length: 60 }, (_, index) => index + 1).join(' ')}.`);
  });

  it('a run waits on one process; the decision goes to the other; the continuation streams from either', async () => {
    const response = await post(a, 'delete /tmp/old.log');
    const runId = response.headers.get('x-run-id') ?? '';
    const waited = await readSse(response);
    expect(waited.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const suspended = waited.events.find((event) => event.type === 'tool_call_suspended');
    const last = waited.ids.at(-1) ?? 0;
    const following = events(a, runId, last);
    const decided = await api(b.url, `/v1/runs/${runId}/decision`, {
      token: ACME,
      body: { toolCallId: suspended?.toolCallId, decisionId: 'ok-1', result: { approved: true } },
    });
    expect(decided.status).toBe(200);
    const [onA, onB] = await Promise.all([
      following.then((r) => readSse(r)),
      events(b, runId, last).then((r) => readSse(r)),
    ]);
    expect(onA.ids).toEqual(onB.ids);
    expect(onA.ids[0]).toBe(last + 1);
    expect(onA.events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'done',
      response: 'Done: I deleted /tmp/old.log.',
    });
    const run = await api(a.url, `/v1/runs/${runId}`, { token: ACME });
    expect(run.body.status).toBe('done');
    // the process that took the decision logged who made it
    const audit = b.logs.find((entry) => entry.msg === 'decision' && entry.decisionId === 'ok-1');
    expect(audit).toMatchObject({ tenant: 'acme', subject: 'alice', runId, status: 'accepted' });
  });

  it("tenants share nothing: another tenant's run is 404 on both processes, including its stream and decisions", async () => {
    const response = await post(a, 'delete /tmp/secret');
    const runId = response.headers.get('x-run-id') ?? '';
    const threadId = response.headers.get('x-thread-id') ?? '';
    const waited = await readSse(response);
    const suspended = waited.events.find((event) => event.type === 'tool_call_suspended');
    for (const app of [a, b]) {
      expect((await api(app.url, `/v1/runs/${runId}`, { token: GLOBEX })).status).toBe(404);
      expect((await events(app, runId, 0, GLOBEX)).status).toBe(404);
      expect((await api(app.url, `/v1/threads/${threadId}`, { token: GLOBEX })).status).toBe(404);
      const decided = await api(app.url, `/v1/runs/${runId}/decision`, {
        token: GLOBEX,
        body: { toolCallId: suspended?.toolCallId, result: { approved: true } },
      });
      expect(decided.status).toBe(404);
      expect((await api(app.url, '/v1/runs', { body: { agentId: 'demo', input: 'hi' } })).status).toBe(401);
    }
    expect((await api(b.url, `/v1/runs/${runId}`, { token: ACME })).body.status).toBe('waiting');
    await api(b.url, `/v1/runs/${runId}/cancel`, { token: ACME, body: {} });
  });

  it('a process killed mid-run: its run is reclaimed by another process, and the stream resumes there without a gap', async () => {
    const env = {
      REDIS_URL: inject('redisUrl'),
      AWAKEN_REDIS_PREFIX: `e2e-kill-${randomUUID().slice(0, 8)}`,
      AWAKEN_TOKENS: `${ACME}:acme`,
      AWAKEN_DEMO_DELAY_MS: '30',
      AWAKEN_LEASE_MS: '1500',
    };
    // the survivor starts once the run executes in the doomed process, so it cannot take it first
    const doomed = await startAppProcess(env);
    let survivor: AppProcess | undefined;
    try {
      const response = await post(doomed, 'count to 400');
      const runId = response.headers.get('x-run-id') ?? '';
      const before = await readSse(response, { stopAfter: 10 });
      // (the survivor's demo model is fast: the reclaimed run asks it again and streams at once)
      survivor = await startAppProcess({ ...env, AWAKEN_DEMO_DELAY_MS: '1' });
      expect((await api(survivor.url, `/v1/runs/${runId}`, { token: ACME })).body.status).toBe('running');
      await doomed.kill();
      const after = await readSse(await events(survivor as AppProcess, runId, before.ids.at(-1) ?? 0));
      const ids = [...before.ids, ...after.ids];
      expect(ids).toEqual(ids.map((_, index) => index + 1));
      expect(after.events.some((event) => event.type === 'run_start' && event.resumed)).toBe(true);
      expect(after.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
      expect(after.events.at(-1)?.response).toMatch(/ 400\.$/);
    } finally {
      await Promise.all([doomed.kill(), survivor?.stop()]);
    }
  });

  it('SIGTERM lets a running activation finish before the process exits', async () => {
    const env = {
      REDIS_URL: inject('redisUrl'),
      AWAKEN_REDIS_PREFIX: `e2e-stop-${randomUUID().slice(0, 8)}`,
      AWAKEN_DEMO_DELAY_MS: '10',
    };
    const extra = await startAppProcess(env);
    const response = await post(extra, 'count to 50');
    const runId = response.headers.get('x-run-id') ?? '';
    await readSse(response, { stopAfter: 5 });
    expect((await api(extra.url, `/v1/runs/${runId}`)).body.status).toBe('running');
    expect(await extra.stop()).toBe(0);
    expect(extra.logs.map((entry) => entry.msg)).toContain('stopped');
    const next = await startAppProcess(env);
    try {
      const run = await api(next.url, `/v1/runs/${runId}`);
      expect(run.body).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    } finally {
      await next.stop();
    }
  });
});
