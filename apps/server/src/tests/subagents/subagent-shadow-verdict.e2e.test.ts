import { afterAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';

const SEEN = { timeout: 20_000, interval: 50 };
const SERIES =
  'awaken_shadow_verdicts_total{tool="delete_file",rule="delete_file(/var/log/**)",shadow="deny",enforced="ask"}';

let app: AppProcess | undefined;
afterAll(async () => {
  await app?.kill();
});

async function counted(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${SERIES} `));
  return line ? Number(line.slice(SERIES.length + 1)) : 0;
}

/**
 * The demo's shadow rule (`delete_file(/var/log/**)` → deny) is inherited by its sub-agents: the
 * janitor's call is judged in the child run, whose events the parent's activation does not carry.
 * The verdict is counted in `/metrics` all the same — once, not again when the child is resumed.
 */
describe('a shadow verdict on a sub-agent’s call', () => {
  it('is counted once in /metrics, across the child’s suspension and resume', async () => {
    app = await startAppProcess({});
    const url = app.url;
    expect(await counted(url)).toBe(0);
    const started = await api(url, '/v1/runs', {
      body: { agentId: 'demo', input: 'ask the janitor to delete /var/log/app.log', stream: false },
    });
    expect(started.status).toBe(202);
    const { runId } = started.body as { runId: string };
    const ticketId = await vi.waitFor(async () => {
      const run = (await api(url, `/v1/runs/${runId}`)).body;
      expect(run.status).toBe('waiting');
      return run.waiting.tickets[0].ticketId as string;
    }, SEEN);
    // the enforced (inherited) rule asked; the shadow rule would have denied: recorded in the child
    await vi.waitFor(async () => expect(await counted(url)).toBe(1), SEEN);

    const decided = await api(url, `/v1/runs/${runId}/decision`, {
      body: { ticketId, result: { approved: true } },
    });
    expect(decided.status).toBeLessThan(300);
    await vi.waitFor(async () => {
      expect((await api(url, `/v1/runs/${runId}`)).body.status).toBe('done');
    }, SEEN);
    // a later run on the process settles after the resumed child was read: still one
    const other = await api(url, '/v1/runs', {
      body: { agentId: 'demo', input: 'weather in Paris', stream: false },
    });
    await vi.waitFor(async () => {
      expect((await api(url, `/v1/runs/${other.body.runId}`)).body.status).toBe('done');
    }, SEEN);
    expect(await counted(url)).toBe(1);
  }, 60_000);
});
