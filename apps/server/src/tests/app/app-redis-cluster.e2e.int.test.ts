import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ACME = 'acme-e2e-token-0123456789';

// The reference server on the test run's Redis Cluster (REDIS_CLUSTER_NODES instead of REDIS_URL):
// two processes, the stores' keys hash-tagged, the mailbox sharded over the three masters.
let a: AppProcess;
let b: AppProcess;
const env = {
  REDIS_CLUSTER_NODES: inject('redisClusterNodes').join(','),
  AWAKEN_REDIS_PREFIX: `e2e-cluster-${randomUUID().slice(0, 8)}`,
  AWAKEN_TOKENS: `${ACME}:acme:alice`,
  AWAKEN_DEMO_DELAY_MS: '10',
  AWAKEN_LEASE_MS: '3000',
  AWAKEN_KEEPALIVE_MS: '200',
};
beforeAll(async () => {
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

function post(app: AppProcess, input: string): Promise<Response> {
  return fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ACME}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
}

function events(app: AppProcess, runId: string, lastEventId: number): Promise<Response> {
  return fetch(`${app.url}/v1/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${ACME}`, 'last-event-id': String(lastEventId) },
  });
}

describe('two server processes on a Redis Cluster', () => {
  it('streams runs of many threads to the end, a cut stream resuming on the other process', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => post(a, 'count to 20')));
    for (const response of responses) {
      const runId = response.headers.get('x-run-id') ?? '';
      // (the first read may hold more than 4 events: what arrived in its chunks)
      await readSse(response, { stopAfter: 4 });
      const resumed = await events(b, runId, 4);
      expect(resumed.status, runId).toBe(200);
      const rest = await readSse(resumed);
      expect(rest.ids).toEqual(rest.ids.map((_, index) => index + 5));
      expect(rest.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
      expect(rest.events.at(-1)?.response).toMatch(/ 20\.$/);
    }
  });

  it('a run waits on one process; the decision goes to the other; the run finishes once', async () => {
    const response = await post(a, 'delete /tmp/old.log');
    const runId = response.headers.get('x-run-id') ?? '';
    const waited = await readSse(response);
    expect(waited.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const suspended = waited.events.find((event) => event.type === 'tool_call_suspended');
    const decided = await api(b.url, `/v1/runs/${runId}/decision`, {
      token: ACME,
      body: { toolCallId: suspended?.toolCallId, decisionId: 'ok-1', result: { approved: true } },
    });
    expect(decided.status).toBe(200);
    const after = await readSse(await events(a, runId, waited.ids.at(-1) ?? 0));
    expect(after.events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'done',
      response: 'Done: I deleted /tmp/old.log.',
    });
    expect((await api(b.url, `/v1/runs/${runId}`, { token: ACME })).body.status).toBe('done');
  });

  it('a waiting run is cancelled from the other process', async () => {
    const response = await post(b, 'delete /tmp/other.log');
    const runId = response.headers.get('x-run-id') ?? '';
    const waited = await readSse(response);
    expect(waited.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const cancelled = await api(a.url, `/v1/runs/${runId}/cancel`, { token: ACME, body: {} });
    expect(cancelled.status).toBeLessThan(300);
    await expect
      .poll(async () => (await api(b.url, `/v1/runs/${runId}`, { token: ACME })).body.status, {
        timeout: 15_000,
      })
      .toBe('done');
  });
});
