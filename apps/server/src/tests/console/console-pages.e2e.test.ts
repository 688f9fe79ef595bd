import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
});
afterAll(async () => {
  await session?.close();
});

const SEEN = { timeout: 15_000 };

/** Starts a run through the API without streaming; returns its ids. */
async function submit(input: string, threadId: string) {
  const started = await api(session.app.url, '/v1/runs', {
    body: { agentId: 'demo', input, threadId, stream: false },
  });
  expect(started.status).toBe(202);
  return started.body as { runId: string; threadId: string };
}

async function statusOf(runId: string): Promise<string> {
  return (await api(session.app.url, `/v1/runs/${runId}`)).body.status;
}

describe('the console pages, in Chromium', () => {
  it('the inbox lists a waiting ticket made through the API, live, and approving it there finishes the run', async () => {
    const page = await session.open('#/inbox');
    await page.getByTestId('inbox-empty').waitFor(SEEN);
    await session.screenshot(page, 'inbox-empty');
    const run = await submit('delete /tmp/inbox.txt', 'inbox-thread');
    // pushed by the inbox stream: the page is not reloaded
    const item = page.locator(`[data-testid="inbox-item"][data-run-id="${run.runId}"]`);
    await item.waitFor(SEEN);
    await expect(item.textContent()).resolves.toContain('/tmp/inbox.txt');
    await session.screenshot(page, 'inbox', { readme: 'console-inbox' });
    await item.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect.poll(() => statusOf(run.runId), SEEN).toBe('done');
    expect((await api(session.app.url, `/v1/runs/${run.runId}`)).body.response).toBe(
      'Done: I deleted /tmp/inbox.txt.',
    );
    await item.waitFor({ state: 'detached', ...SEEN });
  });

  it('a run page draws the timeline: suspended, then resumed and succeeded, the decision and the answer', async () => {
    const run = await submit('delete /tmp/timeline.txt', 'timeline-thread');
    await expect.poll(() => statusOf(run.runId), SEEN).toBe('waiting');
    const ticket = (await api(session.app.url, `/v1/runs/${run.runId}`)).body.waiting.tickets[0];
    await api(session.app.url, `/v1/runs/${run.runId}/decision`, {
      body: { ticketId: ticket.ticketId, result: { approved: true }, reason: 'fine' },
    });
    await expect.poll(() => statusOf(run.runId), SEEN).toBe('done');
    const page = await session.open(`#/run/${run.runId}`);
    const timeline = page.getByTestId('timeline');
    await timeline.waitFor(SEEN);
    await page.getByTestId('final-answer').getByText('Done: I deleted /tmp/timeline.txt.').waitFor(SEEN);
    const tool = timeline.locator('.lane[data-kind="tool"]');
    // the timeline fills in as the run's event pages arrive
    await expect
      .poll(
        () => tool.locator('.bar').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('data-state'))),
        SEEN,
      )
      .toEqual(['running', 'suspended', 'succeeded']);
    await expect(timeline.locator('.lane[data-kind="activation"]').count()).resolves.toBe(2);
    await expect(timeline.locator('.lane[data-kind="model"]').count()).resolves.toBe(2);
    await page.getByText('approved', { exact: true }).waitFor(SEEN);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('tool_call_suspended').first().waitFor(SEEN);
    await session.screenshot(page, 'run-timeline');

    const runs = await session.open('#/runs');
    await runs.locator('[data-testid="run-row"]').first().waitFor(SEEN);
    await expect(runs.getByRole('link', { name: run.runId }).count()).resolves.toBe(1);
    await session.screenshot(runs, 'runs');
  });

  it('a dead-lettered run is requeued from the mailbox page (with a confirmation)', async () => {
    const run = await submit('fail permanently', 'dead-thread');
    await expect.poll(() => statusOf(run.runId), SEEN).toBe('done');
    const page = await session.open('#/mailbox');
    const dead = page.locator(`[data-testid="dead-letter"][data-run-id="${run.runId}"]`);
    await dead.waitFor(SEEN);
    await expect(dead.textContent()).resolves.toContain('the demo model refuses "fail permanently"');
    await session.screenshot(page, 'mailbox');
    await dead.getByRole('button', { name: 'Requeue' }).click();
    await dead.getByRole('button', { name: 'Confirm' }).click();
    const requeued = dead.getByTestId('requeued-run');
    await requeued.waitFor(SEEN);
    const newRunId = (await requeued.textContent()) ?? '';
    expect(newRunId).not.toBe(run.runId);
    const record = await api(session.app.url, `/v1/runs/${newRunId}`);
    expect(record.status).toBe(200);
    expect(record.body.threadId).toBe('dead-thread');
    expect(session.problems).toEqual([]);
  });

  it('is readable at a phone width', async () => {
    const page = await session.open('#/chat/phone-thread', { width: 390, height: 844 });
    await page.getByText('Ask the demo agent something').waitFor(SEEN);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await session.screenshot(page, 'chat-phone');
  });
});

describe('the console with tokens configured', () => {
  let tokened: ConsoleSession;
  const ACME = 'acme-console-token-0123456789';
  const GLOBEX = 'globex-console-token-0123456789';
  beforeAll(async () => {
    tokened = await startConsoleSession({ AWAKEN_TOKENS: `${ACME}:acme:alice,${GLOBEX}:globex:bob` });
  });
  afterAll(async () => {
    await tokened?.close();
  });

  it("asks for a token, keeps it in the tab's session storage, and never shows another tenant's runs", async () => {
    const started = await api(tokened.app.url, '/v1/runs', {
      token: GLOBEX,
      body: { agentId: 'demo', input: 'delete /tmp/globex.txt', threadId: 'globex-thread', stream: false },
    });
    expect(started.status).toBe(202);
    await expect
      .poll(async () => (await api(tokened.app.url, '/v1/inbox', { token: GLOBEX })).body.items.length, SEEN)
      .toBe(1);
    const page = await tokened.open('#/inbox');
    await page.getByLabel('Token').fill(ACME);
    await session.screenshot(page, 'sign-in');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('inbox-empty').waitFor(SEEN);
    await expect(page.evaluate(() => sessionStorage.getItem('awaken-console-token'))).resolves.toBe(ACME);
    await expect(page.evaluate(() => localStorage.length)).resolves.toBe(0);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('tab', { name: 'waiting' }).click();
    await page.getByText('No waiting runs').waitFor(SEEN);
    await expect(page.getByText(started.body.runId).count()).resolves.toBe(0);
    expect(tokened.problems.filter((problem) => !problem.includes('401'))).toEqual([]);
  });
});
