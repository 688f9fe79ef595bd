import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import {
  type ConsoleSession,
  startConsoleSession,
  succeededCalls,
} from '../../../test-support/console-browser';

// "Fork from this step" on the run page (POST /v1/runs/:id/fork): one button per step of a top-level
// run, none on a sub-agent's child run; the console opens the fork, whose page says where it comes
// from — in Chromium against the app
let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
});
afterAll(async () => {
  await session?.close();
});

const SEEN = { timeout: 15_000 };

async function submit(input: string, threadId: string): Promise<string> {
  const started = await api(session.app.url, '/v1/runs', {
    body: { agentId: 'demo', input, threadId, stream: false },
  });
  expect(started.status).toBe(202);
  return started.body.runId;
}

const runOf = async (runId: string) => (await api(session.app.url, `/v1/runs/${runId}`)).body;

async function settled(runId: string, status: 'waiting' | 'done') {
  await expect.poll(async () => (await runOf(runId)).status, SEEN).toBe(status);
  return runOf(runId);
}

const runIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace(/^#\/run\//, ''));

describe('fork from a step, on the run page', () => {
  it('forks a run at its last step: the fork reuses the recorded tool result and says where it comes from', async () => {
    const source = await submit('weather in Paris', 'fork-source');
    const record = await settled(source, 'done');
    expect(record.steps).toBe(2);

    const page = await session.open(`#/run/${source}`);
    const card = page.getByTestId('fork-from-step');
    await card.waitFor(SEEN);
    const buttons = card.getByRole('button', { name: /^Fork from step \d+$/ });
    await expect(buttons.allTextContents()).resolves.toEqual(['Fork from step 1', 'Fork from step 2']);
    // the source is no fork
    await page.getByTestId('final-answer').waitFor(SEEN);
    await expect(page.getByTestId('forked-from').count()).resolves.toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot(page, 'run-fork-buttons');

    await card.getByRole('button', { name: 'Fork from step 2' }).click();
    await expect.poll(() => runIdOf(page), SEEN).not.toBe(source);
    const fork = runIdOf(page);
    const origin = page.getByTestId('forked-from');
    await origin.waitFor(SEEN);
    await expect(origin.textContent()).resolves.toContain(`forked from run ${source.slice(0, 8)} at step 2`);
    await page.getByTestId('final-answer').getByText('It is cloudy in Paris', { exact: false }).waitFor(SEEN);

    // what the server says of the fork: where it comes from, on a branch of the source's thread
    const forked = await settled(fork, 'done');
    expect(forked.forkOf).toMatchObject({ runId: source, threadId: 'fork-source', step: 2 });
    expect(forked.threadId).not.toBe('fork-source');
    const thread = (await api(session.app.url, `/v1/threads/${forked.threadId}`)).body;
    expect(thread.branchOf).toEqual({ threadId: 'fork-source', seq: forked.forkOf.atSeq });
    // the weather was looked up once, by the source: the fork answered from the recorded result
    expect(await succeededCalls(session.app.url, forked.threadId, 'get_weather')).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot(page, 'run-forked');

    // the link goes back to the source run
    await origin.getByRole('link', { name: source.slice(0, 8) }).click();
    await expect.poll(() => runIdOf(page), SEEN).toBe(source);
    await page.getByTestId('fork-from-step').waitFor(SEEN);
    expect(session.problems).toEqual([]);
  });

  it("offers no fork on a sub-agent's child run, which its parent's fork covers", async () => {
    const parent = await submit('ask the janitor to delete /tmp/fork.txt', 'fork-parent');
    const waiting = await settled(parent, 'waiting');
    const child = waiting.waiting.tickets[0].nested.runId as string;
    expect((await runOf(child)).parentRunId).toBe(parent);

    const childPage = await session.open(`#/run/${child}`);
    await childPage.getByTestId('answer-at-parent').waitFor(SEEN);
    await expect(childPage.getByTestId('fork-from-step').count()).resolves.toBe(0);
    const parentPage = await session.open(`#/run/${parent}`);
    await parentPage
      .getByTestId('fork-from-step')
      .getByRole('button', { name: 'Fork from step 1' })
      .waitFor(SEEN);
    expect(session.problems).toEqual([]);
  });
});
