import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';
const READER = 'reader-token-012345678';
const APPROVER = 'approver-token-0123456';
const ENV = () => ({
  REDIS_URL: inject('redisUrl'),
  AWAKEN_REDIS_PREFIX: `audit-${randomUUID().slice(0, 8)}`,
  AWAKEN_DEMO_DELAY_MS: '2',
  AWAKEN_SHUTDOWN_GRACE_MS: '200',
  AWAKEN_TOKENS: [
    `${ALICE}:acme:alice`,
    `${BOB}:acme:bob`,
    `${READER}:acme:reader:read`,
    `${APPROVER}:acme:carol:decide`,
  ].join(','),
});

let env: Record<string, string>;
let app: AppProcess;
beforeAll(async () => {
  env = ENV();
  app = await startAppProcess(env);
});
afterAll(async () => {
  await app.stop();
});

const WAIT = { timeout: 15_000, interval: 25 };

async function waitingRun(input: string, token = ALICE) {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  expect(response.status).toBe(200);
  const { events } = await readSse(response);
  expect(events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
  const suspended = events.find((event) => event.type === 'tool_call_suspended');
  return { runId: response.headers.get('x-run-id') ?? '', ticket: suspended?.ticket };
}

/** Every event of a run: each read ends at an activation's `run_finish`; read on until the last. */
async function eventsOf(runId: string) {
  const all: Array<Record<string, any>> = [];
  for (;;) {
    const after = all.at(-1)?.seq ?? 0;
    const page = await readSse(
      await fetch(`${app.url}/v1/runs/${runId}/events?after=${after}`, {
        headers: { authorization: `Bearer ${ALICE}` },
      }),
    );
    all.push(...page.events);
    if (page.events.length === 0 || all.at(-1)?.status === 'done') return all;
  }
}

async function untilDone(runId: string) {
  return vi.waitFor(async () => {
    const run = await api(app.url, `/v1/runs/${runId}`, { token: ALICE });
    expect(run.body.status).toBe('done');
    return run.body;
  }, WAIT);
}

describe('who decided: the audit trail kept with the run', () => {
  it('records who, when, how, what they saw and answered; lists it, emits it and keeps it across a restart', async () => {
    const { runId, ticket } = await waitingRun('delete /tmp/audit.txt');
    const before = Date.now();
    const decided = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: BOB,
      body: {
        ticketId: ticket.suspension.id,
        decisionId: 'audit-1',
        result: { approved: true, reason: 'checked', editedArguments: { path: '/tmp/audit-copy.txt' } },
      },
    });
    expect(decided.status).toBe(200);
    const done = await untilDone(runId);
    expect(done.response).toBe('Done: I deleted /tmp/audit-copy.txt.');

    const listed = await api(app.url, `/v1/runs/${runId}/decisions`, { token: READER });
    expect(listed.status).toBe(200);
    expect(listed.body.decisions).toHaveLength(1);
    const [record] = listed.body.decisions;
    expect(record).toMatchObject({
      decisionId: 'audit-1',
      ticketId: ticket.suspension.id,
      decidedBy: 'bob',
      channel: 'api',
      shown: {
        toolName: 'delete_file',
        arguments: { path: '/tmp/audit.txt' },
        action: 'confirm',
        message: ticket.suspension.message,
      },
      answer: {
        action: 'resume',
        approved: true,
        reason: 'checked',
        editedArguments: { path: '/tmp/audit-copy.txt' },
      },
    });
    expect(record.decidedAt).toBeGreaterThanOrEqual(before);
    expect(record.appliedAt).toBeGreaterThanOrEqual(record.decidedAt);

    const events = await eventsOf(runId);
    const recorded = events.filter((event) => event.type === 'decision_recorded');
    expect(recorded.map((event) => event.record)).toEqual([record]);

    // every process restarted: the trail is in the stored run
    await app.stop();
    app = await startAppProcess(env);
    const again = await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE });
    expect(again.body.decisions).toEqual([record]);
  });

  it('a denial is recorded as not approved, with the reason, through the channel it came by', async () => {
    const { runId, ticket } = await waitingRun('delete /tmp/keep-me.txt');
    await api(app.url, `/v1/runs/${runId}/decision`, {
      token: APPROVER,
      body: { ticketId: ticket.suspension.id, action: 'cancel', reason: 'not today' },
    });
    await untilDone(runId);
    const listed = await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE });
    expect(listed.body.decisions[0]).toMatchObject({
      decidedBy: 'carol',
      channel: 'api',
      answer: { action: 'cancel', approved: false, reason: 'not today' },
    });
  });

  it('an unknown run has no trail (404)', async () => {
    const missing = await api(app.url, '/v1/runs/no-such-run/decisions', { token: ALICE });
    expect(missing.status).toBe(404);
  });
});

describe('token scopes', () => {
  it('a read-only token reads but cannot decide or start runs (403 forbidden_scope, nothing applied)', async () => {
    const { runId, ticket } = await waitingRun('delete /tmp/scoped.txt');
    const refused = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: READER,
      body: { ticketId: ticket.suspension.id, result: { approved: true } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden_scope');
    expect(refused.body.error.message).toContain('"decide"');
    const started = await api(app.url, '/v1/runs', {
      token: READER,
      body: { agentId: 'demo', input: 'weather in Paris', stream: false },
    });
    expect(started.status).toBe(403);
    expect(started.body.error.code).toBe('forbidden_scope');
    const run = await api(app.url, `/v1/runs/${runId}`, { token: READER });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('waiting');
    expect((await api(app.url, `/v1/runs/${runId}/decisions`, { token: READER })).body.decisions).toEqual([]);
  });

  it('a decide-only token answers tickets but cannot read or start runs', async () => {
    const { runId, ticket } = await waitingRun('delete /tmp/decide-only.txt');
    const read = await api(app.url, `/v1/runs/${runId}`, { token: APPROVER });
    expect(read.status).toBe(403);
    expect(read.body.error.code).toBe('forbidden_scope');
    const decided = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: APPROVER,
      body: { ticketId: ticket.suspension.id, result: { approved: true } },
    });
    expect(decided.status).toBe(200);
    await untilDone(runId);
  });
});

describe('four-eyes', () => {
  it('the subject who started the run cannot approve (403 self_approval_forbidden); another subject can', async () => {
    const { runId, ticket } = await waitingRun('delete /srv/payroll.csv');
    expect(ticket.suspension.requiresDistinctApprover).toBe(true);
    const self = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: ALICE,
      body: { ticketId: ticket.suspension.id, result: { approved: true } },
    });
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe('self_approval_forbidden');
    expect(self.body.error.message).toContain('alice');
    expect((await api(app.url, `/v1/runs/${runId}`, { token: ALICE })).body.status).toBe('waiting');
    const other = await api(app.url, `/v1/runs/${runId}/decision`, {
      token: BOB,
      body: { ticketId: ticket.suspension.id, result: { approved: true } },
    });
    expect(other.status).toBe(200);
    const done = await untilDone(runId);
    expect(done.response).toBe('Done: I deleted /srv/payroll.csv.');
    const listed = await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE });
    expect(listed.body.decisions.map((record: { decidedBy: string }) => record.decidedBy)).toEqual(['bob']);
  });
});
