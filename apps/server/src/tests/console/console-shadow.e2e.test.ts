import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, runEvents, startConsoleSession } from '../../../test-support/console-browser';

const SEEN = { timeout: 20_000, interval: 50 };
const SERIES =
  'awaken_shadow_verdicts_total{tool="delete_file",rule="delete_file(/var/log/**)",shadow="deny",enforced="ask"}';

let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
}, 60_000);
afterAll(async () => {
  await session?.close();
});

/** The value of the series in `/metrics` (0 when it is absent). */
async function counted(): Promise<number> {
  const response = await fetch(`${session.app.url}/metrics`);
  expect(response.status).toBe(200);
  const line = (await response.text()).split('\n').find((entry) => entry.startsWith(`${SERIES} `));
  return line ? Number(line.slice(SERIES.length + 1)) : 0;
}

/**
 * The demo agent tries a stricter rule in shadow mode (`delete_file(/var/log/**)` → deny): deleting a
 * log still asks (the enforced rule), and the verdict is recorded in the run's state, counted in
 * `/metrics` once — not again when the resumed activation's snapshot carries it — and drawn on the
 * run's timeline in the console.
 */
describe('shadow verdicts beyond the run state', () => {
  it('counts a verdict once across a suspension and its resume, and shows it on the run timeline', async () => {
    expect(await counted()).toBe(0);
    const started = await api(session.app.url, '/v1/runs', {
      body: { agentId: 'demo', input: 'delete /var/log/app.log', threadId: 'shadow-thread', stream: false },
    });
    expect(started.status).toBe(202);
    const { runId } = started.body as { runId: string };
    const ticketId = await vi.waitFor(async () => {
      const run = (await api(session.app.url, `/v1/runs/${runId}`)).body;
      expect(run.status).toBe('waiting');
      return run.waiting.tickets[0].ticketId as string;
    }, SEEN);
    // the enforced rule asked; the shadow rule would have denied
    expect(await counted()).toBe(1);

    const decided = await api(session.app.url, `/v1/runs/${runId}/decision`, {
      body: { ticketId, result: { approved: true } },
    });
    expect(decided.status).toBeLessThan(300);
    await vi.waitFor(async () => {
      expect((await api(session.app.url, `/v1/runs/${runId}`)).body.status).toBe('done');
    }, SEEN);
    // the resumed activation's snapshot carries the verdict again: it is not counted again
    const events = await runEvents(session.app.url, runId);
    const starts = events.filter((event) => event.type === 'run_start').map((event) => event.seq);
    expect(starts).toHaveLength(2);
    const resumedSnapshots = events.filter(
      (event) =>
        event.type === 'state_snapshot' &&
        event.seq > (starts[1] as number) &&
        Array.isArray(event.state['run:permission.shadowVerdicts']),
    );
    expect(resumedSnapshots.length).toBeGreaterThan(0);
    expect(await counted()).toBe(1);

    const page = await session.open(`#/run/${runId}`);
    const mark = page.getByTestId('shadow-mark');
    await mark.waitFor(SEEN);
    await expect(mark.count()).resolves.toBe(1);
    await expect(mark.getAttribute('aria-label')).resolves.toBe(
      'shadow rule: delete_file would have denied, enforced ask',
    );
    const verdict = page.getByRole('region', { name: 'Shadow verdicts' }).getByTestId('shadow-verdict');
    await expect(verdict.textContent()).resolves.toMatch(
      /^delete_file would have denied enforced: ask · step 1 · delete_file\(\/var\/log\/\*\*\)/,
    );
    await session.screenshot(page, 'run-shadow-verdict');
    expect(session.problems).toEqual([]);
  });
});
