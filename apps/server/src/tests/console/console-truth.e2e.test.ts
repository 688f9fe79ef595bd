import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

// the console shows what the server says: tickets named by run, history from the thread log, real
// outcomes of edited calls, answers and expiries made elsewhere, four-eyes up front, run page colours
let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession({ AWAKEN_DEMO_APPROVAL_MS: '3000' });
});
afterAll(async () => {
  await session?.close();
});

const SEEN = { timeout: 15_000 };
const PHONE = { width: 390, height: 844 };

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

async function ask(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.keyboard.press('Enter');
}

const assistant = (page: Page) => page.getByTestId('message-assistant').last();
const card = (page: Page, runId: string) =>
  page.locator(`[data-testid="inbox-item"][data-run-id="${runId}"]`);

describe('the inbox names every ticket by its run', () => {
  it('three runs wait on the same prompt: answering one leaves the other two, and an open edit stays with its own run', async () => {
    const runs: string[] = [];
    for (const n of [1, 2, 3]) runs.push(await submit('delete /tmp/same.txt', `same-prompt-${n}`));
    const [a, b, c] = runs as [string, string, string];
    for (const runId of runs) await settled(runId, 'waiting');
    const ticketIds = new Set(
      await Promise.all(runs.map(async (id) => (await runOf(id)).waiting.ticketIds[0])),
    );
    expect(ticketIds.size).toBe(1); // the same ticket id in three runs

    const page = await session.open('#/inbox');
    for (const runId of runs) await card(page, runId).waitFor(SEEN);
    // an edit opened on the third run's card
    await card(page, c).getByRole('button', { name: 'Edit arguments' }).click();
    await card(page, c).getByLabel('Arguments (JSON)').fill('{"path":"/tmp/edited-c.txt"}');
    await session.screenshot(page, 'inbox-same-prompt');
    await session.screenshot(await session.open('#/inbox', PHONE), 'inbox-same-prompt-phone');

    // answered here: only that run's card goes
    await card(page, b).getByRole('button', { name: 'Approve', exact: true }).click();
    await card(page, b).waitFor({ state: 'detached', ...SEEN });
    await expect(page.getByTestId('inbox-item').count()).resolves.toBe(2);
    await expect(page.getByTestId('inbox-empty').count()).resolves.toBe(0);

    // answered through the API: its card goes, the open edit stays on the third run's card
    await api(session.app.url, `/v1/runs/${a}/decision`, {
      body: { ticketId: [...ticketIds][0], result: { approved: true } },
    });
    await card(page, a).waitFor({ state: 'detached', ...SEEN });
    await expect(card(page, c).getByLabel('Arguments (JSON)').inputValue()).resolves.toBe(
      '{"path":"/tmp/edited-c.txt"}',
    );
    await card(page, c).getByRole('button', { name: 'Approve with edits' }).click();
    expect((await settled(c, 'done')).response).toBe('Done: I deleted /tmp/edited-c.txt.');
    expect((await settled(a, 'done')).response).toBe('Done: I deleted /tmp/same.txt.');
    expect((await settled(b, 'done')).response).toBe('Done: I deleted /tmp/same.txt.');
    await page.getByTestId('inbox-empty').waitFor(SEEN);
  });
});

describe('the chat shows the thread the server has', () => {
  it('a thread link from the inbox shows the conversation and its waiting approval; the answer lands in it', async () => {
    const first = await submit('weather in Paris', 'history-thread');
    const weather = await settled(first, 'done');
    const second = await submit('delete /tmp/history.txt', 'history-thread');
    await settled(second, 'waiting');

    const inbox = await session.open('#/inbox');
    await card(inbox, second).getByRole('link', { name: 'history-thread' }).click();
    await inbox.getByTestId('message-user').getByText('weather in Paris').waitFor(SEEN);
    await inbox.getByText(weather.response).waitFor(SEEN);
    await inbox.getByTestId('message-user').getByText('delete /tmp/history.txt').waitFor(SEEN);
    const approval = assistant(inbox).getByTestId('approval');
    await expect(approval.textContent()).resolves.toContain('/tmp/history.txt');
    await expect(inbox.getByText('Ask the demo agent something').count()).resolves.toBe(0);
    await session.screenshot(inbox, 'chat-history');
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    await assistant(inbox).getByText('Done: I deleted /tmp/history.txt.').waitFor(SEEN);
    expect((await settled(second, 'done')).response).toBe('Done: I deleted /tmp/history.txt.');

    // a run page's thread link: the finished conversation, tool results included
    const runPage = await session.open(`#/run/${first}`);
    await runPage.getByRole('link', { name: 'history-thread' }).click();
    await runPage.getByText(weather.response).waitFor(SEEN);
    const calls = runPage.getByTestId('tool-call');
    await expect.poll(() => calls.count(), SEEN).toBe(2);
    await expect(calls.first().textContent()).resolves.toContain('"forecast"');
    await expect(calls.last().textContent()).resolves.toContain('{"deleted":"/tmp/history.txt"}');
    await session.screenshot(await session.open('#/chat/history-thread', PHONE), 'chat-history-phone');
  });

  it('a reload mid-run keeps the user message and the run streams on', async () => {
    const page = await session.open('#/chat/console-reload-history');
    await ask(page, 'count to 300');
    await assistant(page).getByText('4 5 6').waitFor(SEEN);
    await page.reload();
    await page.getByTestId('message-user').getByText('count to 300').waitFor(SEEN);
    await assistant(page).getByText('299 300.').waitFor(SEEN);
    await expect(page.getByTestId('message-user').count()).resolves.toBe(1);
    await expect(page.getByTestId('message-assistant').count()).resolves.toBe(1);
  });
});

describe('approve with edits shows what the server made of it', () => {
  it('an edit into a denied path shows the call blocked, with the rule', async () => {
    const page = await session.open('#/chat/console-edit-blocked');
    await ask(page, 'delete /tmp/report.txt');
    const form = page.getByTestId('approval');
    await form.getByRole('button', { name: 'Edit arguments' }).click(SEEN);
    await form.getByLabel('Arguments (JSON)').fill('{"path":"/etc/hosts"}');
    await form.getByRole('button', { name: 'Approve with edits' }).click();
    const call = page.getByTestId('tool-call');
    await call.getByText('blocked', { exact: true }).waitFor(SEEN);
    await expect(call.textContent()).resolves.toContain('denied by permission rule `delete_file(/etc/**)`');
    await expect(call.textContent()).resolves.toContain('/etc/hosts');
    await assistant(page).getByText('I did not run delete_file').waitFor(SEEN);
    await expect(page.getByText('approved with edited arguments').count()).resolves.toBe(0);
    await session.screenshot(page, 'chat-edit-blocked');
  });

  it('an edit that runs shows its real result', async () => {
    const page = await session.open('#/chat/console-edit-result');
    await ask(page, 'delete /tmp/report.txt');
    const form = page.getByTestId('approval');
    await form.getByRole('button', { name: 'Edit arguments' }).click(SEEN);
    await form.getByLabel('Arguments (JSON)').fill('{"path":"/tmp/other.txt"}');
    await form.getByRole('button', { name: 'Approve with edits' }).click();
    await assistant(page).getByText('Done: I deleted /tmp/other.txt.').waitFor(SEEN);
    const call = page.getByTestId('tool-call');
    await expect(call.textContent()).resolves.toContain('→ {"deleted":"/tmp/other.txt"}');
    await expect(page.getByText('approved with edited arguments').count()).resolves.toBe(0);
  });
});

describe('an open chat follows its waiting run', () => {
  it('an answer made through the API replaces the approval with what happened', async () => {
    const page = await session.open('#/chat/console-api-answer');
    await ask(page, 'delete /tmp/api.txt');
    await page.getByRole('button', { name: 'Approve', exact: true }).waitFor(SEEN);
    const [run] = (await api(session.app.url, '/v1/threads/console-api-answer/runs')).body.items;
    await api(session.app.url, `/v1/runs/${run.runId}/decision`, {
      body: { ticketId: run.waiting.ticketIds[0], result: { approved: true } },
    });
    await assistant(page).getByText('Done: I deleted /tmp/api.txt.').waitFor(SEEN);
    await expect(page.getByRole('button', { name: 'Approve', exact: true }).count()).resolves.toBe(0);
    await page.getByText('approved by default via api').waitFor(SEEN);
    await session.screenshot(page, 'chat-answered-elsewhere');
  });

  it('an expiry replaces the approval with "expired"', async () => {
    const page = await session.open('#/chat/console-expiry');
    await ask(page, 'restart nginx');
    await page.getByRole('button', { name: 'Approve', exact: true }).waitFor(SEEN);
    await page
      .getByTestId('approval')
      .getByText(/expires in/)
      .waitFor(SEEN);
    await assistant(page).getByText('Nobody approved restart_service in time').waitFor(SEEN);
    await expect(page.getByRole('button', { name: 'Approve', exact: true }).count()).resolves.toBe(0);
    await page.getByTestId('tool-call').getByText('expired', { exact: true }).waitFor(SEEN);
    await session.screenshot(page, 'chat-expired');
  });

  it('a stale button (the chat could not follow the run) answers with a sentence, never raw JSON', async () => {
    const page = await session.open('#/chat/console-stale');
    // the run's events never reach this page: the chat cannot learn of the answer by itself
    await page.route('**/v1/runs/*/events**', (route) => route.abort());
    await ask(page, 'delete /tmp/stale.txt');
    await page.getByRole('button', { name: 'Approve', exact: true }).waitFor(SEEN);
    const [run] = (await api(session.app.url, '/v1/threads/console-stale/runs')).body.items;
    await api(session.app.url, `/v1/runs/${run.runId}/decision`, {
      body: { ticketId: run.waiting.ticketIds[0], result: { approved: false, reason: 'not that one' } },
    });
    await settled(run.runId, 'done');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('alert').getByText('already answered elsewhere').waitFor(SEEN);
    await expect(page.getByText('{"error"').count()).resolves.toBe(0);
    // and the chat shows what happened instead
    await assistant(page).getByText('I did not run delete_file').waitFor(SEEN);
    await page.getByTestId('tool-call').getByText('denied', { exact: true }).waitFor(SEEN);
  });
});

describe('four-eyes', () => {
  it('is shown up front, and a self-approval is refused in words while the question keeps waiting (inbox and chat)', async () => {
    const runId = await submit('delete /srv/data.txt', 'four-eyes-inbox');
    await settled(runId, 'waiting');
    const inbox = await session.open('#/inbox');
    const item = card(inbox, runId);
    await item.getByText('needs a second approver').waitFor(SEEN);
    await item.getByRole('button', { name: 'Approve', exact: true }).click();
    await item.getByRole('alert').getByText('it needs a second approver').waitFor(SEEN);
    await expect(item.textContent()).resolves.not.toContain('{"error"');
    await expect(item.getByRole('button', { name: 'Approve', exact: true }).isEnabled()).resolves.toBe(true);
    expect((await runOf(runId)).status).toBe('waiting');
    await session.screenshot(inbox, 'inbox-four-eyes');

    const chat = await session.open('#/chat/four-eyes-chat');
    await ask(chat, 'delete /srv/chat.txt');
    const form = chat.getByTestId('approval');
    await form.getByText('needs a second approver').waitFor(SEEN);
    await form.getByRole('button', { name: 'Approve', exact: true }).click();
    await chat.getByRole('alert').getByText('it needs a second approver').waitFor(SEEN);
    await expect(chat.getByText('{"error"').count()).resolves.toBe(0);
    // the card still asks: the run still waits
    await chat.getByTestId('approval').getByRole('button', { name: 'Approve', exact: true }).waitFor(SEEN);
    const [run] = (await api(session.app.url, '/v1/threads/four-eyes-chat/runs')).body.items;
    expect(run.status).toBe('waiting');
    await session.screenshot(chat, 'chat-four-eyes');
  });
});

describe('the run page', () => {
  it('answers the waiting run, shows a deny as denied and who decided', async () => {
    const runId = await submit('delete /tmp/run-page.txt', 'run-page-deny');
    await settled(runId, 'waiting');
    const page = await session.open(`#/run/${runId}`);
    const waiting = page.getByTestId('run-waiting');
    await waiting.getByPlaceholder('Reason (optional)').fill('keep it', SEEN);
    await waiting.getByRole('button', { name: 'Deny' }).click();
    await page.getByTestId('final-answer').getByText('I did not run delete_file').waitFor(SEEN);
    const decision = page.getByTestId('decision');
    await decision.getByText('denied', { exact: true }).waitFor(SEEN);
    await expect(decision.getByTestId('decided-by').textContent()).resolves.toBe('default');
    await expect(decision.textContent()).resolves.toContain('via api');
    await expect(decision.textContent()).resolves.toContain('keep it');
    const bars = page.locator('.lane[data-kind="tool"] .bar');
    await expect
      .poll(() => bars.evaluateAll((all) => all.map((bar) => bar.getAttribute('data-state'))), SEEN)
      .toEqual(['running', 'suspended', 'denied']);
    await expect(page.getByTestId('run-waiting').count()).resolves.toBe(0);
    await session.screenshot(page, 'run-denied');
    await session.screenshot(await session.open(`#/run/${runId}`, PHONE), 'run-denied-phone');
  });

  it('draws an expired wait as expired and a failed activation as failed', async () => {
    const expired = await submit('restart nginx', 'run-page-expired');
    await settled(expired, 'waiting');
    expect((await settled(expired, 'done')).response).toBe(
      'Nobody approved restart_service in time, so I did not run it.',
    );
    const page = await session.open(`#/run/${expired}`);
    const tool = page.locator('.lane[data-kind="tool"] .bar');
    await expect
      .poll(() => tool.evaluateAll((all) => all.map((bar) => bar.getAttribute('data-state'))), SEEN)
      .toEqual(['running', 'expired']);
    // drawn grey, not the blue of a running call
    await expect(tool.last().evaluate((bar) => getComputedStyle(bar).backgroundColor)).resolves.toBe(
      'rgb(156, 163, 175)',
    );
    await session.screenshot(page, 'run-expired');

    const failed = await submit('fail permanently', 'run-page-failed');
    await settled(failed, 'done');
    const failedPage = await session.open(`#/run/${failed}`);
    const activation = failedPage.locator('.lane[data-kind="activation"] .bar');
    await expect
      .poll(() => activation.evaluateAll((all) => all.map((bar) => bar.getAttribute('data-state'))), SEEN)
      .toEqual(['failed']);
    // no script error on any page; the refusals asked for above (four-eyes 403, stale 409, the
    // blocked event stream) are the only failed requests
    expect(session.problems.filter((problem) => !problem.includes('Failed to load resource'))).toEqual([]);
  });
});
