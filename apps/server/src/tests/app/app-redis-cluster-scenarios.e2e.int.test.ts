import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

// The server's scenarios beyond a waiting run on the test run's Redis Cluster: two processes share
// it; an interrupt, a dead letter and its requeue, a ticket that expires while nobody listens, and a
// fork — each started on one process and seen through the other.
const SEEN = { timeout: 20_000, interval: 50 };
let a: AppProcess;
let b: AppProcess;
const env = {
  REDIS_CLUSTER_NODES: inject('redisClusterNodes').join(','),
  AWAKEN_REDIS_PREFIX: `e2e-cluster-scenarios-${randomUUID().slice(0, 8)}`,
  AWAKEN_DEMO_DELAY_MS: '20',
  AWAKEN_DEMO_APPROVAL_MS: '600',
  AWAKEN_LEASE_MS: '3000',
  AWAKEN_KEEPALIVE_MS: '200',
};
beforeAll(async () => {
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

async function settled(app: AppProcess, runId: string, statuses = ['waiting', 'done']): Promise<any> {
  return vi.waitFor(async () => {
    const run = (await api(app.url, `/v1/runs/${runId}`)).body;
    expect(statuses).toContain(run.status);
    return run;
  }, SEEN);
}

describe('the server scenarios on a Redis Cluster, across two processes', () => {
  it('interrupt: newer input on the thread (from the other process) ends the running run; the new one answers', async () => {
    const threadId = `interrupt-${randomUUID()}`;
    const first = await api(a.url, '/v1/runs', {
      body: { agentId: 'demo', threadId, input: 'count to 200', stream: false },
    });
    await vi.waitFor(async () => {
      expect((await api(b.url, `/v1/runs/${first.body.runId}`)).body.status).toBe('running');
    }, SEEN);
    const second = await api(b.url, '/v1/runs', {
      body: { agentId: 'demo', threadId, input: 'weather in Paris', ifBusy: 'interrupt', stream: false },
    });
    expect(second.status).toBe(202);
    const ended = await settled(a, first.body.runId, ['done']);
    expect(ended.termination.type).toBe('cancelled');
    const answered = await settled(a, second.body.runId, ['done']);
    expect(answered.response).toContain('Paris');
  });

  it('dead letter: a permanent failure is dead-lettered, listed on both processes, requeued from the other', async () => {
    const threadId = `dead-${randomUUID()}`;
    const started = await api(a.url, '/v1/runs', {
      body: { agentId: 'demo', threadId, input: 'fail permanently', stream: false },
    });
    const dispatchId = started.body.dispatchId;
    await vi.waitFor(async () => {
      const dead = (await api(b.url, '/v1/mailbox/dead-letters')).body.items;
      expect(dead.map((item: { dispatchId: string }) => item.dispatchId)).toContain(dispatchId);
    }, SEEN);
    const requeued = await api(b.url, `/v1/mailbox/dead-letters/${dispatchId}/requeue`, { body: {} });
    expect(requeued.status).toBe(202);
    expect(requeued.body).toMatchObject({ threadId, requeuedFrom: dispatchId });
    // the requeued run fails the same way: dead-lettered again, once, and listed
    await vi.waitFor(async () => {
      const dead = (await api(a.url, '/v1/mailbox/dead-letters')).body.items;
      expect(dead.map((item: { dispatchId: string }) => item.dispatchId)).toContain(requeued.body.dispatchId);
    }, SEEN);
    // requeued again from the first process: the same new run, not a second one
    const again = await api(a.url, `/v1/mailbox/dead-letters/${dispatchId}/requeue`, { body: {} });
    expect(again.body).toMatchObject({ runId: requeued.body.runId, dispatchId: requeued.body.dispatchId });
  });

  it('expiry: an unanswered ticket expires while nobody listens; the run moves on by itself', async () => {
    const started = await fetch(`${b.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 'demo', input: 'restart nginx' }),
    });
    const runId = started.headers.get('x-run-id') ?? '';
    const waited = await readSse(started);
    expect(waited.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const done = await settled(a, runId, ['done']);
    expect(done.response).toBe('Nobody approved restart_service in time, so I did not run it.');
  });

  it('fork: a run forked on one process, its repeat question answered on the other, sends nothing twice', async () => {
    const started = await api(a.url, '/v1/runs', {
      body: { agentId: 'demo', input: 'send invoice 77', stream: false },
    });
    expect((await settled(b, started.body.runId, ['done'])).steps).toBe(2);
    const fork = await api(b.url, `/v1/runs/${started.body.runId}/fork`, {
      body: { atStep: 1, stream: false },
    });
    expect(fork.status).toBe(202);
    const waiting = await settled(a, fork.body.runId);
    const ticket = waiting.waiting.tickets[0];
    expect(ticket.action).toBe('fork_repeat');
    const decided = await api(a.url, `/v1/runs/${fork.body.runId}/decision`, {
      body: { ticketId: ticket.ticketId, result: { outcome: 'result', result: { sent: '77' } } },
    });
    expect(decided.body.receipts[0].status).toBe('accepted');
    expect((await settled(b, fork.body.runId, ['done'])).response).toBe('Done: invoice 77 is sent.');
    const sends = `${a.output()}${b.output()}`
      .split('\n')
      .filter((line) => line.includes('demo: sending invoice') && line.includes('"invoice":"77"'));
    expect(sends).toHaveLength(1);
  });
});
