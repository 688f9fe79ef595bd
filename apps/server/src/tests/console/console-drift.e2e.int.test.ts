import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { api, startAppProcess } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

// a run waits for an approval; the app is deployed again (same Redis) with the demo agent's
// permission rules changed (another approval timeout for restart_service): the run page says the
// run's agent changed since it started and names what changed; a run of the new deploy says nothing
const SEEN = { timeout: 20_000 };
let session: ConsoleSession;
let waitingRun = '';

beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `console-drift-${randomUUID().slice(0, 8)}`,
    AWAKEN_DEMO_DELAY_MS: '5',
  };
  const before = await startAppProcess(env);
  try {
    const started = await api(before.url, '/v1/runs', {
      body: { agentId: 'demo', input: 'delete /tmp/drift.txt', threadId: 'drift-thread', stream: false },
    });
    expect(started.status).toBe(202);
    waitingRun = started.body.runId;
    await vi.waitFor(
      async () => {
        const status = (await api(before.url, `/v1/runs/${waitingRun}`)).body.status;
        if (status !== 'waiting') throw new Error(`run ${waitingRun} is ${status}, not waiting`);
      },
      { timeout: 20_000, interval: 100 },
    );
    // not drifted while the agent is as it was
    expect((await api(before.url, `/v1/runs/${waitingRun}`)).body.agentDrift).toBeUndefined();
  } finally {
    await before.stop();
  }
  session = await startConsoleSession({ ...env, AWAKEN_DEMO_APPROVAL_MS: '45000' });
}, 90_000);
afterAll(async () => {
  await session?.close();
});

describe('the drift badge on the run page', () => {
  it("names what changed in the run's agent since it started, and stays away from a run that did not drift", async () => {
    const view = (await api(session.app.url, `/v1/runs/${waitingRun}`)).body;
    expect(view.agentDrift).toEqual({ changed: ['rules'] });

    const page = await session.open(`#/run/${waitingRun}`);
    const badge = page.getByTestId('agent-drift');
    await badge.waitFor(SEEN);
    await expect(badge.getByTestId('agent-drift-fields').textContent()).resolves.toBe('rules');
    await expect(badge.textContent()).resolves.toContain('agent changed since this run started');
    await session.screenshot(page, 'run-agent-drift');

    // answered under the new definition (the default, continue): the run goes on, the drift still shown
    await page.getByTestId('run-waiting').getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('final-answer').waitFor(SEEN);
    await badge.waitFor(SEEN);

    // a run of the agent as deployed now: no badge once its record is shown
    const fresh = await api(session.app.url, '/v1/runs', {
      body: { agentId: 'demo', input: 'weather in Paris', threadId: 'drift-fresh', stream: false },
    });
    await expect
      .poll(async () => (await api(session.app.url, `/v1/runs/${fresh.body.runId}`)).body.status, SEEN)
      .toBe('done');
    const other = await session.open(`#/run/${fresh.body.runId}`);
    await other.getByTestId('final-answer').waitFor(SEEN);
    await expect(other.getByTestId('agent-drift').count()).resolves.toBe(0);
    expect(session.problems).toEqual([]);
  }, 60_000);
});
