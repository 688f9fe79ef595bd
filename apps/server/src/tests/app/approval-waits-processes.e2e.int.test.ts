import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ACME = 'acme-waits-token-0123456789';
const METRICS = 'metrics-waits-token-0123456789';
const BUCKETS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600];
const WAIT = { timeout: 20_000, interval: 50 };

const env = {
  REDIS_URL: inject('redisUrl'),
  AWAKEN_REDIS_PREFIX: `waits-${randomUUID().slice(0, 8)}`,
  AWAKEN_TOKENS: `${ACME}:acme:alice`,
  AWAKEN_METRICS_TOKEN: METRICS,
  AWAKEN_DEMO_DELAY_MS: '5',
  AWAKEN_LEASE_MS: '3000',
};

let a: AppProcess | undefined;
let b: AppProcess | undefined;
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

/** Starts a run on `app` and reads its stream until it waits: the question and when it was asked. */
async function ask(app: AppProcess, input: string) {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ACME}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  const runId = response.headers.get('x-run-id') ?? '';
  const { events } = await readSse(response);
  expect(events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
  const suspended = events.find((event) => event.type === 'tool_call_suspended');
  expect(suspended).toBeDefined();
  return { runId, toolCallId: suspended!.toolCallId as string, askedAt: suspended!.at as number };
}

/** The series of `awaken_approval_wait_seconds` with these labels, from `/metrics`. */
async function histogram(app: AppProcess, labels: string) {
  const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  const text = await response.text();
  const value = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1));
  const lines = text.split('\n');
  const find = (prefix: string) => lines.find((line) => line.startsWith(prefix));
  const buckets = new Map<number, number>();
  for (const le of BUCKETS) {
    const line = find(`awaken_approval_wait_seconds_bucket{le="${le}",${labels}}`);
    if (line) buckets.set(le, value(line));
  }
  const count = find(`awaken_approval_wait_seconds_count{${labels}}`);
  const sum = find(`awaken_approval_wait_seconds_sum{${labels}}`);
  return {
    buckets,
    count: count ? value(count) : 0,
    sum: sum ? value(sum) : 0,
  };
}

describe('human waits measured across processes (two app processes, one Redis)', () => {
  it('a question asked on A and answered or cancelled on B is measured on B from when A asked it', async () => {
    a = await startAppProcess(env);
    const approved = await ask(a, 'delete /tmp/a.log');
    const cancelled = await ask(a, 'delete /tmp/b.log');
    // A is gone (and with it anything it remembered) before anyone answers
    await a.stop();
    a = undefined;
    b = await startAppProcess(env);
    // the waits are at least 1.5 s long, so the 1 s bucket tells a full measure from one taken at B's start
    const earliest = Math.max(approved.askedAt, cancelled.askedAt) + 1_500;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, earliest - Date.now())));

    const sentAt = Date.now();
    const decided = await api(b.url, `/v1/runs/${approved.runId}/decision`, {
      token: ACME,
      body: { toolCallId: approved.toolCallId, decisionId: 'ok-1', result: { approved: true } },
    });
    expect(decided.status).toBe(200);
    const answeredBy = Date.now();
    const cancelAt = Date.now();
    const cancel = await api(b.url, `/v1/runs/${cancelled.runId}/cancel`, { token: ACME, body: {} });
    expect(cancel.status).toBe(200);
    const cancelledBy = Date.now();

    const labels = (outcome: string, channel: string) =>
      `outcome="${outcome}",tool="delete_file",channel="${channel}"`;
    for (const [labelSet, from, to, askedAt] of [
      [labels('approved', 'api'), sentAt, answeredBy, approved.askedAt],
      [labels('cancelled', 'runtime'), cancelAt, cancelledBy, cancelled.askedAt],
    ] as const) {
      const series = await vi.waitFor(async () => {
        const read = await histogram(b!, labelSet);
        expect(read.count, labelSet).toBe(1);
        return read;
      }, WAIT);
      // the wait runs from the ask on A (its stored event's time) to the answer on B
      const least = (from - askedAt) / 1000;
      const most = (to - askedAt) / 1000;
      expect(series.sum, labelSet).toBeGreaterThanOrEqual(least - 0.05);
      expect(series.sum, labelSet).toBeLessThanOrEqual(most + 0.05);
      for (const [le, count] of series.buckets) {
        if (le < least) expect(count, `${labelSet} le=${le}`).toBe(0);
        if (le >= most) expect(count, `${labelSet} le=${le}`).toBe(1);
      }
      expect(series.buckets.get(1)).toBe(0);
    }
  }, 120_000);
});
