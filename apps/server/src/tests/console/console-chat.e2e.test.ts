import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import {
  type ConsoleSession,
  startConsoleSession,
  succeededCalls,
} from '../../../test-support/console-browser';

let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
});
afterAll(async () => {
  await session?.close();
});

const SEEN = { timeout: 15_000 };

async function ask(page: Page, text: string): Promise<void> {
  await page.locator('#chat-input').fill(text);
  await page.keyboard.press('Enter');
}

const assistant = (page: Page) => page.getByTestId('message-assistant').last();

describe('the console chat (useChat on the AI SDK route), in Chromium', () => {
  it('approve: the approval card runs the tool once and the agent answers', async () => {
    const page = await session.open('#/chat/console-approve');
    await page.getByText('Ask the demo agent something').waitFor(SEEN);
    await ask(page, 'delete /tmp/report.txt');
    const card = page.getByTestId('approval');
    await card.waitFor(SEEN);
    await expect(card.textContent()).resolves.toContain('/tmp/report.txt');
    await session.screenshot(page, 'chat-approval', { readme: 'console-chat-approval' });
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await assistant(page).getByText('Done: I deleted /tmp/report.txt.').waitFor(SEEN);
    await expect(page.getByTestId('approval').count()).resolves.toBe(0);
    expect(await succeededCalls(session.app.url, 'console-approve', 'delete_file')).toBe(1);
    await session.screenshot(page, 'chat-approved');
  });

  it('deny with a reason: the tool never runs and the agent says why', async () => {
    const page = await session.open('#/chat/console-deny');
    await ask(page, 'delete /tmp/keep.txt');
    const card = page.getByTestId('approval');
    await card.waitFor(SEEN);
    await card.getByPlaceholder('Reason (optional)').fill('keep it');
    await card.getByRole('button', { name: 'Deny' }).click();
    await assistant(page).getByText('I did not run delete_file').waitFor(SEEN);
    expect(await succeededCalls(session.app.url, 'console-deny', 'delete_file')).toBe(0);
    await session.screenshot(page, 'chat-denied');
  });

  it('edit arguments: the tool runs once, with the edited path', async () => {
    const page = await session.open('#/chat/console-edit');
    await ask(page, 'delete /tmp/report.txt');
    const card = page.getByTestId('approval');
    await card.waitFor(SEEN);
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    await card.getByLabel('Arguments (JSON)').fill('{"path":"/tmp/other.txt"}');
    await card.getByRole('button', { name: 'Approve with edits' }).click();
    await assistant(page).getByText('Done: I deleted /tmp/other.txt.').waitFor(SEEN);
    expect(await succeededCalls(session.app.url, 'console-edit', 'delete_file')).toBe(1);
  });

  it('two parallel approvals answered one at a time', async () => {
    const page = await session.open('#/chat/console-parallel');
    await ask(page, 'delete /tmp/a.txt and /tmp/b.txt');
    const cards = page.getByTestId('approval');
    await cards.nth(1).waitFor(SEEN);
    await cards.first().getByRole('button', { name: 'Approve', exact: true }).click();
    await expect.poll(() => cards.count(), SEEN).toBe(1);
    // the first call runs on its own while the second still waits
    await expect.poll(() => succeededCalls(session.app.url, 'console-parallel', 'delete_file'), SEEN).toBe(1);
    await cards.first().getByRole('button', { name: 'Approve', exact: true }).click();
    await assistant(page).getByText('Done: I deleted /tmp/b.txt.').waitFor(SEEN);
    expect(await succeededCalls(session.app.url, 'console-parallel', 'delete_file')).toBe(2);
  });

  it('the client tool choose_color is answered from the page', async () => {
    const page = await session.open('#/chat/console-color');
    await ask(page, 'pick a color');
    await page.getByRole('button', { name: 'green' }).click(SEEN);
    await assistant(page).getByText('You chose green. Nice choice!').waitFor(SEEN);
    await session.screenshot(page, 'chat-client-tool');
  });

  it('a reload while the run waits shows the conversation and its approval, and approving it there finishes the run in the conversation', async () => {
    const page = await session.open('#/chat/console-waiting-reload');
    await ask(page, 'delete /tmp/late.txt');
    await page.getByTestId('approval').waitFor(SEEN);
    await page.reload();
    // the user's own message and the agent's words come back from the thread log
    await page.getByTestId('message-user').getByText('delete /tmp/late.txt').waitFor(SEEN);
    await assistant(page).getByText('I will delete /tmp/late.txt.').waitFor(SEEN);
    await assistant(page).getByRole('button', { name: 'Approve', exact: true }).click(SEEN);
    // the answer lands in the same assistant message, not under the empty-state chips
    await assistant(page).getByText('Done: I deleted /tmp/late.txt.').waitFor(SEEN);
    await expect(page.getByText('Ask the demo agent something').count()).resolves.toBe(0);
    expect(await succeededCalls(session.app.url, 'console-waiting-reload', 'delete_file')).toBe(1);
  });

  it('an idle chat shows a run started elsewhere (the API) as it happens, through the thread event stream', async () => {
    const page = await session.open('#/chat/console-elsewhere');
    await ask(page, 'count to 3');
    await assistant(page).getByText('1 2 3.').waitFor(SEEN);
    // another client starts a run on this thread: the page, idle, shows its question without a reload
    const started = await api(session.app.url, '/v1/runs', {
      body: {
        agentId: 'demo',
        input: 'delete /tmp/elsewhere.txt',
        threadId: 'console-elsewhere',
        stream: false,
      },
    });
    expect(started.status).toBe(202);
    const card = page.getByTestId('approval');
    await card.waitFor(SEEN);
    await expect(card.textContent()).resolves.toContain('/tmp/elsewhere.txt');
    expect(session.problems).toEqual([]);
  });

  it('a reload in the middle of a run re-attaches to it and shows it finish; stop cancels', async () => {
    const page = await session.open('#/chat/console-reload');
    await ask(page, 'count to 150');
    await assistant(page).getByText('5 6 7').waitFor(SEEN);
    await page.reload();
    await assistant(page).getByText('148 149 150.').waitFor(SEEN);
    await ask(page, 'count to 1000');
    await assistant(page).getByText('3 4 5').waitFor(SEEN);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped: the run was cancelled.').waitFor(SEEN);
    expect(session.problems).toEqual([]);
  });
});
