import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ALICE = 'alice-token-0123456789';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({
    AWAKEN_DEMO_DELAY_MS: '2',
    AWAKEN_SHUTDOWN_GRACE_MS: '200',
    AWAKEN_TOKENS: `${ALICE}:acme:alice`,
  });
});
afterAll(async () => {
  await app?.stop();
});

describe('a ticket that expires says when, wherever the API lists it', () => {
  it('GET /v1/runs/:id, GET /v1/inbox and GET /v1/runs?status=waiting carry the ticket expiresAt', async () => {
    const before = Date.now();
    const started = await fetch(`${app.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ agentId: 'demo', input: 'restart nginx' }),
    });
    await readSse(started);
    const runId = started.headers.get('x-run-id') ?? '';
    const run = await api(app.url, `/v1/runs/${runId}`, { token: ALICE });
    const expiresAt = run.body.waiting.tickets[0].expiresAt;
    expect(expiresAt).toBeGreaterThan(before);
    const inbox = await api(app.url, '/v1/inbox', { token: ALICE });
    const item = inbox.body.items.find((entry: { runId: string }) => entry.runId === runId);
    expect(item.tickets[0].expiresAt).toBe(expiresAt);
    const waiting = await api(app.url, '/v1/runs?status=waiting', { token: ALICE });
    const listed = waiting.body.items.find((entry: { runId: string }) => entry.runId === runId);
    expect(listed.waiting.tickets[0].expiresAt).toBe(expiresAt);
  });
});
