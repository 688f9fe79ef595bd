import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

// `send invoice N` runs a tool that must never run twice; a fork of that run at step 1 asks before
// sending again (a `fork_repeat` ticket), answered from the console's run page
const SEEN = { timeout: 20_000 };
let session: ConsoleSession;

beforeAll(async () => {
  session = await startConsoleSession({ AWAKEN_DEMO_DELAY_MS: '5' });
}, 60_000);
afterAll(async () => {
  await session?.close();
});

async function settled(runId: string, status: string): Promise<any> {
  await expect
    .poll(async () => (await api(session.app.url, `/v1/runs/${runId}`)).body.status, SEEN)
    .toBe(status);
  return (await api(session.app.url, `/v1/runs/${runId}`)).body;
}

/** How many times the demo's `send_invoice` started for this invoice (the server logs each start). */
function sends(invoice: string): number {
  return session.app
    .output()
    .split('\n')
    .filter((line) => line.includes('demo: sending invoice') && line.includes(`"invoice":"${invoice}"`))
    .length;
}

async function forkedInvoice(n: number): Promise<string> {
  const url = session.app.url;
  const started = await api(url, '/v1/runs', {
    body: { agentId: 'demo', input: `send invoice ${n}`, stream: false },
  });
  await settled(started.body.runId, 'done');
  const fork = await api(url, `/v1/runs/${started.body.runId}/fork`, { body: { atStep: 1, stream: false } });
  expect(fork.status).toBe(202);
  const waiting = await settled(fork.body.runId, 'waiting');
  expect(waiting.waiting.tickets[0].action).toBe('fork_repeat');
  return fork.body.runId;
}

describe("a fork's question before it repeats a call, answered from the console", () => {
  it('"run it again?" starts from the recorded result; using it completes the fork without sending again', async () => {
    const runId = await forkedInvoice(51);
    const page = await session.open(`#/run/${runId}`);
    const waiting = page.getByTestId('run-waiting');
    await waiting.getByText('run it again?', { exact: true }).waitFor(SEEN);
    await waiting.getByRole('button', { name: 'Use a result…' }).click();
    // the form starts from what the source run recorded
    await expect(waiting.getByLabel('Result (JSON)').inputValue()).resolves.toContain('"sent": "51"');
    await session.screenshot(page, 'run-fork-repeat');
    await waiting.getByRole('button', { name: 'Use this result' }).click();
    expect((await settled(runId, 'done')).response).toBe('Done: invoice 51 is sent.');
    // the invoice was sent once, by the source run
    expect(sends('51')).toBe(1);
  });

  it('"run again" sends it a second time, as asked', async () => {
    const runId = await forkedInvoice(52);
    const page = await session.open(`#/run/${runId}`);
    const waiting = page.getByTestId('run-waiting');
    await waiting.getByRole('button', { name: 'Run again' }).click(SEEN);
    expect((await settled(runId, 'done')).response).toBe('Done: invoice 52 is sent.');
    expect(sends('52')).toBe(2);
    expect(session.problems).toEqual([]);
  });
});
