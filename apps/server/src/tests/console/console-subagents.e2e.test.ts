import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

// sub-agents in the console, in Chromium against the reference app: a question asked inside the
// janitor sub-agent is shown (inbox card, run page) as the inner `delete_file` call with its path and
// agent path, and answered from the console through the top-level ticket (approve, deny, edit); the
// parent's run page draws the child as a nested lane linking to the child run, which links back;
// a handoff is a lane of the timeline
let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
});
afterAll(async () => {
  await session?.close();
});

const SEEN = { timeout: 15_000 };
const PHONE = { width: 390, height: 844 };
const JANITOR = 'ask the janitor to delete /tmp/report.txt';

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

/** The parent run waiting on its janitor's question, and the child run that asks it. */
async function janitorWaiting(threadId: string): Promise<{ parent: string; child: string; ticket: any }> {
  const parent = await submit(JANITOR, threadId);
  const record = await settled(parent, 'waiting');
  const ticket = record.waiting.tickets[0];
  expect(ticket.toolName).toBe('janitor');
  expect(ticket.nested).toMatchObject({ toolName: 'delete_file', agentPath: ['demo', 'janitor'] });
  return { parent, child: ticket.nested.runId, ticket };
}

const card = (page: Page, runId: string) =>
  page.locator(`[data-testid="inbox-item"][data-run-id="${runId}"]`);

/** How far the page is wider than the window (0 when nothing scrolls sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('a question asked inside a sub-agent', () => {
  it('the inbox card shows delete_file, its path and the agent path; approving it completes the child and the parent', async () => {
    const { parent, child } = await janitorWaiting('sub-approve');
    const page = await session.open('#/inbox');
    const item = card(page, parent);
    await item.waitFor(SEEN);
    // the inner call, not the delegate call: its name, its arguments, the agents that led to it
    await expect(item.locator('code.tool').textContent()).resolves.toBe('delete_file');
    await expect(item.getByTestId('agent-path').textContent()).resolves.toBe('demo › janitor › delete_file');
    const shown = JSON.parse((await item.locator('pre.args').textContent()) ?? '');
    expect(shown).toEqual({ path: '/tmp/report.txt' });
    await expect(item.getAttribute('aria-label')).resolves.toBe(`delete_file in run ${parent}`);
    // the child's question is listed once, on its top-level run
    await expect(card(page, child).count()).resolves.toBe(0);
    await session.screenshot(page, 'inbox-nested-question');
    const phone = await session.open('#/inbox', PHONE);
    await card(phone, parent).waitFor(SEEN);
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    await session.screenshot(phone, 'inbox-nested-question-phone');
    await phone.context().close();

    // the thread's chat shows the same question on the janitor call
    const chat = await session.open('#/chat/sub-approve');
    const asking = chat.getByTestId('approval');
    await asking.getByTestId('agent-path').waitFor(SEEN);
    await expect(asking.getByTestId('agent-path').textContent()).resolves.toBe(
      'demo › janitor › delete_file',
    );
    await expect(asking.locator('code.tool').textContent()).resolves.toBe('delete_file');
    await session.screenshot(chat, 'chat-nested-question');
    await chat.context().close();

    await item.getByRole('button', { name: 'Approve', exact: true }).click();
    await item.waitFor({ state: 'detached', ...SEEN });
    // the server says both ended: the child deleted the file once, the parent answered from it
    const childRun = await settled(child, 'done');
    expect(childRun.termination.type).toBe('natural_end');
    expect(childRun.response).toBe('Done: I deleted /tmp/report.txt.');
    const parentRun = await settled(parent, 'done');
    expect(parentRun.response).toBe('The janitor deleted /tmp/report.txt.');
    const decisions = (await api(session.app.url, `/v1/runs/${child}/decisions`)).body.decisions;
    expect(decisions.map((d: any) => [d.shown.toolName, d.answer.approved])).toEqual([['delete_file', true]]);
    expect(session.problems).toEqual([]);
  }, 90_000);

  it('the parent run page shows the child as a nested lane linking to the child run, which links back', async () => {
    const { parent, child } = await janitorWaiting('sub-lanes');
    const page = await session.open(`#/run/${parent}`);
    // waiting: the ticket form on the run page names the inner call too
    const waiting = page.getByTestId('run-waiting');
    await waiting.locator('code.tool').getByText('delete_file', { exact: true }).waitFor(SEEN);
    await expect(waiting.getByTestId('agent-path').textContent()).resolves.toBe(
      'demo › janitor › delete_file',
    );
    const lane = page.locator(`[data-testid="child-run"][data-run-id="${child}"]`);
    await lane.getByText('waiting', { exact: true }).waitFor(SEEN);
    await session.screenshot(page, 'run-subagent-waiting');

    // the child's own page, while it waits: a link back, and its question answered at the parent
    const childPage = await session.open(`#/run/${child}`);
    await childPage.getByTestId('answer-at-parent').waitFor(SEEN);
    await expect(childPage.getByRole('button', { name: 'Approve', exact: true }).count()).resolves.toBe(0);
    await childPage.context().close();

    await waiting.getByRole('button', { name: 'Approve', exact: true }).click();
    expect((await settled(parent, 'done')).response).toBe('The janitor deleted /tmp/report.txt.');
    // the lane follows the server: the child is done
    await lane.getByText('done', { exact: true }).waitFor(SEEN);
    await expect(lane.getByTestId('agent-path').textContent()).resolves.toBe('demo › janitor');
    await lane.getByText('call_1_janitor').waitFor(SEEN);
    // the timeline draws the child under the call that started it: two inline activations
    const timelineLane = page.locator('.lane[data-kind="subagent"]');
    await expect(timelineLane.count()).resolves.toBe(1);
    await expect(timelineLane.getByRole('link').getAttribute('href')).resolves.toBe(`#/run/${child}`);
    const kinds = await page
      .locator('.lane')
      .evaluateAll((all) => all.map((lane) => `${lane.getAttribute('data-kind')}:${lane.textContent}`));
    const toolAt = kinds.findIndex((kind) => kind.startsWith('tool:janitor'));
    expect(kinds[toolAt + 1]).toMatch(/^subagent:↳ janitor/);
    await expect(timelineLane.locator('.bar').count()).resolves.toBe(3); // ran, waited, ran
    // the parent's decision names where it went: the child run
    await expect(
      page.getByTestId('forwarded-to').getByRole('link', { name: 'child run' }).getAttribute('href'),
    ).resolves.toBe(`#/run/${child}`);
    await session.screenshot(page, 'run-subagent');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    const dark = await session.open(`#/run/${parent}`, { ...PHONE, colorScheme: 'dark' });
    await dark.getByTestId('child-run').getByText('done', { exact: true }).waitFor(SEEN);
    expect(await overflow(dark)).toBeLessThanOrEqual(0);
    await session.screenshot(dark, 'run-subagent-phone-dark');
    await dark.context().close();

    await lane.getByTestId('child-run-link').click();
    await page.waitForURL(`**/#/run/${child}`);
    const back = page.getByTestId('parent-run');
    await back.waitFor(SEEN);
    await expect(back.getByTestId('parent-call-id').textContent()).resolves.toBe('call_1_janitor');
    await expect(back.getByTestId('agent-path').textContent()).resolves.toBe('demo › janitor');
    await page.getByTestId('final-answer').getByText('Done: I deleted /tmp/report.txt.').waitFor(SEEN);
    await session.screenshot(page, 'run-subagent-child');
    await back.getByTestId('parent-run-link').click();
    await page.waitForURL(`**/#/run/${parent}`);
    await page.getByTestId('child-runs').waitFor(SEEN);

    // the runs list marks the child run with its parent
    const list = await session.open('#/runs');
    const row = list.locator('[data-testid="run-row"]').filter({ hasText: child });
    await expect(row.getByTestId('run-parent').getByRole('link').getAttribute('href')).resolves.toBe(
      `#/run/${parent}`,
    );
    await list.context().close();
    expect(session.problems).toEqual([]);
  }, 90_000);

  it('deny and edit from the console go to the child: denied → nothing deleted; edited → the edited path', async () => {
    const denied = await janitorWaiting('sub-deny');
    const edited = await janitorWaiting('sub-edit');

    // deny on the parent's run page
    const runPage = await session.open(`#/run/${denied.parent}`);
    const waiting = runPage.getByTestId('run-waiting');
    await waiting.getByLabel('Reason').fill('keep it');
    await waiting.getByRole('button', { name: 'Deny' }).click();
    const parentDenied = await settled(denied.parent, 'done');
    expect(parentDenied.response).toMatch(/^The janitor did not delete \/tmp\/report\.txt/);
    const childDenied = await settled(denied.child, 'done');
    expect(childDenied.response).not.toMatch(/I deleted/);
    const trail = (await api(session.app.url, `/v1/runs/${denied.child}/decisions`)).body.decisions;
    expect(trail.map((d: any) => [d.shown.toolName, d.answer.approved, d.answer.reason])).toEqual([
      ['delete_file', false, 'keep it'],
    ]);

    // edit in the inbox: the arguments edited are the inner call's
    const inbox = await session.open('#/inbox');
    const item = card(inbox, edited.parent);
    await item.getByRole('button', { name: 'Edit arguments' }).click();
    const editor = item.getByLabel('Arguments (JSON)');
    expect(JSON.parse(await editor.inputValue())).toEqual({ path: '/tmp/report.txt' });
    await editor.fill('{"path":"/tmp/other.txt"}');
    await item.getByRole('button', { name: 'Approve with edits' }).click();
    await item.waitFor({ state: 'detached', ...SEEN });
    expect((await settled(edited.child, 'done')).response).toBe('Done: I deleted /tmp/other.txt.');
    expect((await settled(edited.parent, 'done')).response).toBe('The janitor deleted /tmp/other.txt.');
    expect(session.problems).toEqual([]);
  }, 90_000);

  it('two sub-agents in parallel: two cards, each with its own agent path, answered in either order', async () => {
    const parent = await submit(
      'ask the janitor to delete /tmp/a.txt and the archivist to delete /tmp/b.txt',
      'sub-two',
    );
    await expect.poll(async () => (await runOf(parent)).waiting?.tickets?.length ?? 0, SEEN).toBe(2);
    const page = await session.open('#/inbox');
    const cards = card(page, parent);
    await expect.poll(() => cards.count(), SEEN).toBe(2);
    const paths = await cards.getByTestId('agent-path').allInnerTexts();
    expect(paths.sort()).toEqual(['demo › archivist › delete_file', 'demo › janitor › delete_file']);
    const archivist = cards.filter({ hasText: 'demo › archivist' });
    expect(JSON.parse((await archivist.locator('pre.args').textContent()) ?? '')).toEqual({
      path: '/tmp/b.txt',
    });
    await archivist.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect.poll(() => cards.count(), SEEN).toBe(1);
    await cards.getByRole('button', { name: 'Approve', exact: true }).click();
    const done = await settled(parent, 'done');
    expect(done.response).toMatch(/\/tmp\/a\.txt/);
    expect(done.response).toMatch(/\/tmp\/b\.txt/);

    const runPage = await session.open(`#/run/${parent}`);
    await expect.poll(() => runPage.getByTestId('child-run').count(), SEEN).toBe(2);
    await expect
      .poll(() => runPage.getByTestId('child-run').getByText('done', { exact: true }).count(), SEEN)
      .toBe(2);
    expect(session.problems).toEqual([]);
  }, 90_000);
});

describe('a handoff', () => {
  it('is a lane of the timeline (from → to), and the page names the agent the run was handed to', async () => {
    const runId = await submit('transfer me to billing', 'handoff-lane');
    const record = await settled(runId, 'done');
    expect(record.activeAgentId).toBe('billing');
    const page = await session.open(`#/run/${runId}`);
    const lane = page.locator('.lane[data-kind="handoff"]');
    await lane.waitFor(SEEN);
    await expect(lane.locator('.lane-label').textContent()).resolves.toBe('demo → billing');
    await expect(page.getByTestId('active-agent').textContent()).resolves.toBe('billing');
    await session.screenshot(page, 'run-handoff');
    expect(session.problems).toEqual([]);
  }, 60_000);
});
