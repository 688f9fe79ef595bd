import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

// the console chat's edit-and-resend and regenerate run on branches of the thread (the AI SDK route
// makes them): the chat moves to the branch, says where it comes from, and a switcher under the
// message goes between its versions, so the earlier answer stays reachable — all from what the
// server says (its branch list and the thread views), in Chromium against the app
let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
});
afterAll(async () => {
  await session?.close();
});

const SEEN = { timeout: 15_000 };
const SOURCE = 'branch-source';

async function settledRun(input: string, threadId: string): Promise<string> {
  const started = await api(session.app.url, '/v1/runs', {
    body: { agentId: 'demo', input, threadId, stream: false },
  });
  expect(started.status).toBe(202);
  await expect
    .poll(async () => (await api(session.app.url, `/v1/runs/${started.body.runId}`)).body.status, SEEN)
    .toBe('done');
  return started.body.runId;
}

const threadOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace(/^#\/chat\//, ''));
const branchesOf = async (threadId: string) =>
  (await api(session.app.url, `/v1/threads/${threadId}/branches`)).body.items as Array<{
    id: string;
    branchOf: { threadId: string; seq: number };
  }>;
/** A screenshot of the page from its top (the sticky bar stays where it belongs). */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await session.screenshot(page, name);
}
const lastUser = (page: Page) => page.getByTestId('message-user').last();
const lastAnswer = (page: Page) => page.getByTestId('message-assistant').last();

/** Waits until the chat shows thread `threadId` (its URL and its loaded conversation). */
async function showing(page: Page, threadId: string, lastQuestion: string) {
  await expect.poll(() => threadOf(page), SEEN).toBe(threadId);
  await lastUser(page).getByText(lastQuestion, { exact: true }).waitFor(SEEN);
}

describe('branches in the console chat', () => {
  it('edit-and-resend and regenerate continue on branches; the switcher goes between the versions', async () => {
    const paris = await settledRun('weather in Paris', SOURCE);
    const rome = await settledRun('weather in Rome', SOURCE);
    const sourceMessages = (await api(session.app.url, `/v1/threads/${SOURCE}/messages?limit=100`)).body
      .items;
    const romeSeq = sourceMessages.find((item: any) => item.message.content === 'weather in Rome').seq;

    const page = await session.open(`#/chat/${SOURCE}`);
    await showing(page, SOURCE, 'weather in Rome');
    // a thread with no branches: no switcher, no branch list, no origin
    await lastAnswer(page).getByText('in Rome,', { exact: false }).waitFor(SEEN);
    await expect(page.getByTestId('branch-switcher').count()).resolves.toBe(0);
    await expect(page.getByTestId('branch-list').count()).resolves.toBe(0);
    await expect(page.getByTestId('branch-origin').count()).resolves.toBe(0);

    // edit the last question: the answer comes on a branch made after the Paris answer
    await lastUser(page).getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edited message').fill('weather in Oslo');
    await page.getByRole('button', { name: 'Send edit' }).click();
    await expect.poll(() => threadOf(page), SEEN).not.toBe(SOURCE);
    const edited = threadOf(page);
    await showing(page, edited, 'weather in Oslo');
    await lastAnswer(page).getByText('in Oslo,', { exact: false }).waitFor(SEEN);
    expect(await branchesOf(SOURCE)).toEqual([
      expect.objectContaining({ id: edited, branchOf: { threadId: SOURCE, seq: romeSeq - 1 } }),
    ]);
    const origin = page.getByTestId('branch-origin');
    await origin
      .getByTestId('branch-seq')
      .getByText(`#${romeSeq - 1}`)
      .waitFor(SEEN);
    await expect(origin.getByTestId('branch-source').textContent()).resolves.toBe(SOURCE);
    await page.getByTestId('message-user').first().getByText('weather in Paris').waitFor(SEEN);
    await expect(page.getByTestId('message-user').count()).resolves.toBe(2);
    // the shared prefix shows its answer too (a run of the source thread)
    await page
      .getByTestId('message-assistant')
      .first()
      .getByText('in Paris,', { exact: false })
      .waitFor(SEEN);
    await expect(page.getByTestId('message-assistant').count()).resolves.toBe(2);
    await expect(page.getByTestId('message-assistant').first().getAttribute('data-run-id')).resolves.toBe(
      paris,
    );
    await expect(lastUser(page).getByTestId('branch-position').textContent()).resolves.toBe('2/2');
    // the first question has one version
    await expect(
      page.getByTestId('message-user').first().getByTestId('branch-switcher').count(),
    ).resolves.toBe(0);
    await shot(page, 'chat-branch-edited');

    // back to the first version: the source thread, its Rome answer as it was
    await lastUser(page).getByRole('button', { name: 'Previous version' }).click();
    await showing(page, SOURCE, 'weather in Rome');
    await expect(lastAnswer(page).getAttribute('data-run-id')).resolves.toBe(rome);
    await expect(lastUser(page).getByTestId('branch-position').textContent()).resolves.toBe('1/2');
    await page.getByTestId('branch-list').locator(`[data-thread-id="${edited}"]`).waitFor(SEEN);

    // regenerate the Rome answer: another branch, at the same message
    await lastAnswer(page).getByRole('button', { name: 'Regenerate' }).click();
    await expect.poll(() => threadOf(page), SEEN).not.toBe(SOURCE);
    const regenerated = threadOf(page);
    expect(regenerated).not.toBe(edited);
    await showing(page, regenerated, 'weather in Rome');
    await lastAnswer(page).getByText('in Rome,', { exact: false }).waitFor(SEEN);
    const newAnswer = await lastAnswer(page).getAttribute('data-run-id');
    expect(newAnswer).not.toBe(rome);
    await expect(lastUser(page).getByTestId('branch-position').textContent()).resolves.toBe('3/3');
    expect((await branchesOf(SOURCE)).map((branch) => [branch.id, branch.branchOf.seq])).toEqual([
      [edited, romeSeq - 1],
      [regenerated, romeSeq - 1],
    ]);
    await shot(page, 'chat-branch-regenerated');

    // the switcher walks the versions: 2/3 is the edit, 1/3 the source with its first answer
    await lastUser(page).getByRole('button', { name: 'Previous version' }).click();
    await showing(page, edited, 'weather in Oslo');
    await expect(lastUser(page).getByTestId('branch-position').textContent()).resolves.toBe('2/3');
    await lastUser(page).getByRole('button', { name: 'Previous version' }).click();
    await showing(page, SOURCE, 'weather in Rome');
    await expect(lastUser(page).getByTestId('branch-position').textContent()).resolves.toBe('1/3');
    await expect(lastAnswer(page).getAttribute('data-run-id')).resolves.toBe(rome);
    await expect(page.getByTestId('message-assistant').first().getAttribute('data-run-id')).resolves.toBe(
      paris,
    );
    await page.getByTestId('branch-item').nth(1).waitFor(SEEN);
    await shot(page, 'chat-branch-source');

    // a branch of a branch at the same message is one more version of it, for every thread sharing it
    await page.getByTestId('branch-list').locator(`[data-thread-id="${edited}"] a`).click();
    await showing(page, edited, 'weather in Oslo');
    await lastAnswer(page).getByRole('button', { name: 'Regenerate' }).click();
    await expect.poll(() => threadOf(page), SEEN).not.toBe(edited);
    const again = threadOf(page);
    await showing(page, again, 'weather in Oslo');
    expect((await api(session.app.url, `/v1/threads/${again}`)).body.branchOf).toEqual({
      threadId: edited,
      seq: romeSeq - 1,
    });
    await expect(lastUser(page).getByTestId('branch-position').textContent()).resolves.toBe('4/4');
    await lastUser(page).getByRole('button', { name: 'Previous version' }).click();
    await showing(page, regenerated, 'weather in Rome');
    await expect(lastUser(page).getByTestId('branch-position').textContent()).resolves.toBe('3/4');

    // the thread list marks the branches, not their source
    const list = await session.open('#/threads');
    await list.locator(`[data-thread-id="${again}"]`).getByText('branch', { exact: true }).waitFor(SEEN);
    await list.locator(`[data-thread-id="${edited}"]`).getByText('branch', { exact: true }).waitFor(SEEN);
    await expect(
      list.locator(`[data-thread-id="${SOURCE}"]`).getByText('branch', { exact: true }).count(),
    ).resolves.toBe(0);

    // a phone in dark mode: the switcher and the branch list fit, nothing scrolls sideways
    const phone = await session.open(`#/chat/${edited}`, { width: 390, height: 844, colorScheme: 'dark' });
    await showing(phone, edited, 'weather in Oslo');
    await phone.getByTestId('branch-origin').waitFor(SEEN);
    await lastUser(phone).getByTestId('branch-position').getByText('2/4').waitFor(SEEN);
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shot(phone, 'chat-branch-phone-dark');

    // the source thread's log is as it was
    const after = (await api(session.app.url, `/v1/threads/${SOURCE}/messages?limit=100`)).body.items;
    expect(after).toEqual(sourceMessages);
    expect(session.problems).toEqual([]);
  }, 90_000);
});
