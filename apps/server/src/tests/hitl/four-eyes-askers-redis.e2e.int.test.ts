import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

/**
 * The askers of a run live in the run itself, so every process sharing the stores judges the same:
 * two server processes on one Redis; Bob's run, resumed by Alice through the other process, edited
 * by Carol — only a fourth person may approve.
 */
const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';
const CAROL = 'carol-token-0123456789';
const DANA = 'dana-token-01234567890';

let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `eyes-${randomUUID().slice(0, 8)}`,
    AWAKEN_TOKENS: `${ALICE}:acme:alice,${BOB}:acme:bob,${CAROL}:acme:carol,${DANA}:acme:dana`,
    AWAKEN_DEMO_DELAY_MS: '2',
    AWAKEN_SHUTDOWN_GRACE_MS: '200',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const WAIT = { timeout: 20_000, interval: 25 };

async function waitingOn(app: AppProcess, runId: string, path: string) {
  return vi.waitFor(async () => {
    const run = (await api(app.url, `/v1/runs/${runId}`, { token: BOB })).body;
    expect(run.status).toBe('waiting');
    expect(run.waiting.tickets[0].arguments).toEqual({ path });
    return run.waiting.tickets[0].ticketId as string;
  }, WAIT);
}

const decide = (app: AppProcess, token: string, runId: string, ticketId: string, result: unknown) =>
  api(app.url, `/v1/runs/${runId}/decision`, { token, body: { ticketId, result } });

describe('four-eyes askers on Redis, across two processes', () => {
  it('the starter, who resumed the run and who edited its call are all refused, on either process; a fourth person approves', async () => {
    const response = await fetch(`${a.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOB}` },
      body: JSON.stringify({ agentId: 'demo', input: 'delete /tmp/bobs.txt' }),
    });
    await readSse(response);
    const runId = response.headers.get('x-run-id') ?? '';
    const threadId = response.headers.get('x-thread-id') ?? '';
    await waitingOn(a, runId, '/tmp/bobs.txt');

    const resumed = await api(b.url, `/v1/threads/${threadId}/inject`, {
      token: ALICE,
      body: { mode: 'resume', input: 'delete /srv/redis-a.csv' },
    });
    expect(resumed.status).toBe(202);
    const fourEyes = await waitingOn(a, runId, '/srv/redis-a.csv');
    // Carol (not an asker yet) approves with an edit: she asks for the edited call
    const edited = await decide(b, CAROL, runId, fourEyes, {
      approved: true,
      editedArguments: { path: '/srv/redis-b.csv' },
    });
    expect(edited.status).toBe(200);
    const again = await waitingOn(b, runId, '/srv/redis-b.csv');
    for (const [app, token] of [
      [a, ALICE],
      [b, BOB],
      [a, CAROL],
    ] as const) {
      const self = await decide(app, token, runId, again, { approved: true });
      expect(self.status).toBe(403);
      expect(self.body.error.code).toBe('self_approval_forbidden');
    }
    expect((await decide(a, DANA, runId, again, { approved: true })).status).toBe(200);
    const done = await vi.waitFor(async () => {
      const run = (await api(b.url, `/v1/runs/${runId}`, { token: BOB })).body;
      expect(run.status).toBe('done');
      return run;
    }, WAIT);
    expect(done.response).toBe('Done: I deleted /srv/redis-b.csv.');
    const audit = (await api(b.url, `/v1/runs/${runId}/decisions`, { token: BOB })).body.decisions;
    expect(audit.map((record: any) => record.decidedBy)).toEqual([
      undefined, // the superseded plain ask, cancelled by the resume
      'carol',
      'dana',
    ]);
  });
});
