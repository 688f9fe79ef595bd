import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

// the thread list, a run page's calls, four-eyes links, the agent picker, titles, not-found, phone
// width and dark mode: the console pages after the first ones, in Chromium against the app
let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
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

/** How far the page is wider than the window (0 when nothing scrolls sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Screenshots of `hash` at laptop and phone width, light and dark, each without sideways scroll. */
async function everyLook(hash: string, name: string, ready: (page: Page) => Promise<unknown>) {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [size, viewport] of [
      ['laptop', {}],
      ['phone', PHONE],
    ] as const) {
      const page = await session.open(hash, { ...viewport, colorScheme });
      await ready(page);
      expect(await overflow(page), `${name} ${size} ${colorScheme}`).toBeLessThanOrEqual(0);
      await session.screenshot(page, `${name}-${size}-${colorScheme}`);
      await page.context().close();
    }
  }
}

describe('the thread list', () => {
  it('lists threads newest first with their first message as title, pages, and opens a thread with its history', async () => {
    // more threads than a page holds, then two with a conversation
    for (let index = 0; index < 26; index += 1) {
      const created = await api(session.app.url, '/v1/threads', { body: { id: `pad-${index}` } });
      expect(created.status).toBe(201);
    }
    const older = await submit('weather in Oslo', 'list-older');
    await settled(older, 'done');
    const waiting = await submit('delete /tmp/list.txt', 'list-newer');
    await settled(waiting, 'waiting');

    const page = await session.open('#/threads');
    await expect(page.title()).resolves.toBe('Threads · Awaken console');
    const rows = page.getByTestId('thread-row');
    await rows.first().waitFor(SEEN);
    await expect(rows.count()).resolves.toBe(25);
    const ids = await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-thread-id')));
    expect(ids.slice(0, 2)).toEqual(['list-newer', 'list-older']);
    const newer = page.locator('[data-thread-id="list-newer"]');
    await newer.getByRole('link', { name: 'delete /tmp/list.txt' }).waitFor(SEEN);
    await newer.getByText('waiting', { exact: true }).waitFor(SEEN);
    await page.locator('[data-thread-id="list-older"]').getByText('finished', { exact: true }).waitFor(SEEN);
    await session.screenshot(page, 'threads', { readme: 'console-threads' });

    // the oldest thread is on the next page
    await page.getByRole('button', { name: 'Older →' }).click();
    await page.locator('[data-thread-id="pad-0"]').waitFor(SEEN);
    await expect(page.locator('[data-thread-id="list-newer"]').count()).resolves.toBe(0);
    await page.getByRole('button', { name: '← Newer' }).click();
    await page.locator('[data-thread-id="list-newer"]').waitFor(SEEN);

    // a new message moves a thread to the front
    await settled(await submit('weather in Rome', 'list-older'), 'done');
    await page.reload();
    await rows.first().waitFor(SEEN);
    await expect(rows.first().getAttribute('data-thread-id')).resolves.toBe('list-older');

    // opening it shows its conversation
    await page.getByRole('link', { name: 'weather in Oslo' }).click();
    await page.getByTestId('message-user').getByText('weather in Rome').waitFor(SEEN);
    await page.getByTestId('message-user').getByText('weather in Oslo').waitFor(SEEN);
    expect(page.url()).toContain('#/chat/list-older');
    await expect(page.title()).resolves.toBe('Chat · Awaken console');

    // and "New chat" from the list opens an empty chat
    await page.goto(`${session.app.url}/#/threads`);
    await page.getByRole('link', { name: 'New chat' }).click();
    await page.getByText('Ask the demo agent something').waitFor(SEEN);

    await everyLook('#/threads', 'threads', (look) => look.getByTestId('thread-row').first().waitFor(SEEN));
  }, 90_000);
});

describe('the run page', () => {
  it("shows each call: a tool call's input and output, a model call's tokens (a row or a bar)", async () => {
    const runId = await submit('weather in Paris', 'run-calls');
    await settled(runId, 'done');
    const page = await session.open(`#/run/${runId}`);
    await expect(page.title()).resolves.toBe(`Run ${runId.slice(0, 8)} · Awaken console`);
    const calls = page.getByRole('table', { name: 'Calls' });
    await calls.waitFor(SEEN);
    await expect(calls.locator('[data-testid="call-row"][data-kind="model"]').count()).resolves.toBe(2);
    await calls.getByRole('row', { name: /get_weather/ }).click();
    const detail = page.getByTestId('call-detail');
    await detail.locator('dd').first().getByText('"city": "Paris"').waitFor(SEEN);
    await detail.getByText('"forecast"').waitFor(SEEN);
    await detail.getByText('Duration').waitFor(SEEN);
    // a model call from its bar in the timeline: its tokens and what it read
    await page
      .getByRole('button', { name: /^model .*: succeeded \(open the call\)$/ })
      .first()
      .click();
    await page.getByTestId('call-detail').getByText('Tokens').waitFor(SEEN);
    await page.getByTestId('call-detail').getByText('weather in Paris').waitFor(SEEN);
    // links to the thread's chat and the run's dispatches
    await page.getByRole('link', { name: 'Open the chat' }).waitFor(SEEN);
    await page.getByTestId('run-dispatches').getByText('acked').first().waitFor(SEEN);
    await calls.getByRole('row', { name: /get_weather/ }).click();
    await session.screenshot(page, 'run-calls');
  });
});

describe('four-eyes', () => {
  // tokens: alice starts the runs (an asker), carol uses the console (a second person who may issue
  // a link), bob approves through the link
  const ALICE = 'alice-console-token-0123';
  const CAROL = 'carol-console-token-0123';
  let guarded: ConsoleSession;
  beforeAll(async () => {
    guarded = await startConsoleSession({
      AWAKEN_TOKENS: `${ALICE}:default:alice,${CAROL}:default:carol`,
    });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  async function submitAsAlice(input: string, threadId: string): Promise<string> {
    const started = await api(guarded.app.url, '/v1/runs', {
      token: ALICE,
      body: { agentId: 'demo', input, threadId, stream: false },
    });
    expect(started.status).toBe(202);
    return started.body.runId;
  }

  async function settledAs(runId: string, status: 'waiting' | 'done') {
    const read = async () => (await api(guarded.app.url, `/v1/runs/${runId}`, { token: ALICE })).body;
    await expect.poll(async () => (await read()).status, SEEN).toBe(status);
    return read();
  }

  /** The console signed in as carol (the token the console keeps in the tab's session storage). */
  async function openAsCarol(hash: string, options?: { height?: number }) {
    const page = await guarded.open(hash, options);
    await page.evaluate(
      ([key, token]) => sessionStorage.setItem(key as string, token as string),
      ['awaken-console-token', CAROL],
    );
    await page.reload();
    return page;
  }

  it('issues an approval link for a named approver from the form; answered in a second browser, the run page names the approver', async () => {
    const runId = await submitAsAlice('delete /srv/four-eyes.txt', 'four-eyes-link');
    await settledAs(runId, 'waiting');
    const page = await openAsCarol(`#/run/${runId}`, { height: 1500 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const form = page.getByTestId('run-waiting').getByTestId('approval');
    await form.getByText('needs a second approver').waitFor(SEEN);
    await form.getByRole('button', { name: 'Get an approval link…' }).click();
    // no approver named: said so, nothing issued
    await form.getByRole('button', { name: 'Issue and copy link' }).click();
    await form.getByRole('alert').getByText('Name the approver the link is for.').waitFor(SEEN);
    await form.getByLabel('Second approver').fill('bob');
    await form.getByRole('button', { name: 'Issue and copy link' }).click();
    const link = form.getByLabel('Approval link for bob');
    await link.waitFor(SEEN);
    const url = await link.inputValue();
    expect(url).toMatch(/^http:\/\/[^/]+\/links\//);
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(url);
    await form.getByText('Copied.').waitFor(SEEN);
    await guarded.screenshot(page, 'run-four-eyes-link');

    // bob opens it in a browser of his own
    const other = await guarded.browser.newContext();
    try {
      const approver = await other.newPage();
      await approver.goto(url);
      await approver.getByRole('button', { name: 'Approve' }).click();
      await approver
        .getByText(/approved|recorded/i)
        .first()
        .waitFor(SEEN);
    } finally {
      await other.close();
    }
    await settledAs(runId, 'done');
    await page.getByTestId('decided-by').getByText('bob', { exact: true }).waitFor(SEEN);
    // the call's input and output, and who decided it
    await page
      .getByRole('table', { name: 'Calls' })
      .getByRole('row', { name: /delete_file/ })
      .click();
    const detail = page.getByTestId('call-detail');
    await detail.getByText('"path": "/srv/four-eyes.txt"').first().waitFor(SEEN);
    await detail.getByText('bob via link').waitFor(SEEN);
    await guarded.screenshot(page, 'run-four-eyes-approved', { readme: 'console-run' });
  });

  it("shows the server's refusal of a link in words", async () => {
    const runId = await submitAsAlice('delete /srv/refused.txt', 'four-eyes-refused');
    const run = await settledAs(runId, 'waiting');
    const page = await openAsCarol(`#/run/${runId}`);
    const form = page.getByTestId('run-waiting').getByTestId('approval');
    await form.getByRole('button', { name: 'Get an approval link…' }).click();
    // the run's own starter cannot be its second approver
    const starter = run.context?.caller?.subject ?? run.context?.caller?.tenant ?? 'default';
    await form.getByLabel('Second approver').fill(String(starter));
    await form.getByRole('button', { name: 'Issue and copy link' }).click();
    await form
      .getByRole('alert')
      .getByText(/^The server refused the link: .*needs an approver other than/)
      .waitFor(SEEN);
    await expect(form.textContent()).resolves.not.toContain('{"error"');
  });
});

describe('triage by keyboard', () => {
  it('j / k select questions in the inbox, a approves and d denies the selected one', async () => {
    const first = await submit('delete /tmp/keys-1.txt', 'keys-1');
    await settled(first, 'waiting');
    const second = await submit('delete /tmp/keys-2.txt', 'keys-2');
    await settled(second, 'waiting');
    const page = await session.open('#/inbox');
    await page.getByText('next / previous question').waitFor(SEEN);
    const card = (runId: string) => page.locator(`[data-testid="inbox-item"][data-run-id="${runId}"]`);
    await card(first).waitFor(SEEN);
    await card(second).waitFor(SEEN);
    // newest first: j selects the second run's question, j again the first's, k back
    await page.keyboard.press('j');
    await expect(card(second).getAttribute('aria-current')).resolves.toBe('true');
    await page.keyboard.press('j');
    await expect(card(first).getAttribute('aria-current')).resolves.toBe('true');
    await page.keyboard.press('k');
    await expect(card(second).getAttribute('aria-current')).resolves.toBe('true');
    await session.screenshot(page, 'inbox-keyboard');
    await page.keyboard.press('d');
    await expect((await settled(second, 'done')).termination).toBeDefined();
    await card(second).waitFor({ state: 'detached', ...SEEN });
    await page.keyboard.press('j');
    await expect(card(first).getAttribute('aria-current')).resolves.toBe('true');
    await page.keyboard.press('a');
    expect((await settled(first, 'done')).response).toBe('Done: I deleted /tmp/keys-1.txt.');
    const trail = await api(session.app.url, `/v1/runs/${second}/decisions`);
    expect(trail.body.decisions[0].answer.approved).toBe(false);
  });
});

describe('shipping', () => {
  it('an unknown route shows a not-found page with its title and the way back', async () => {
    const page = await session.open('#/nowhere/at-all');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor(SEEN);
    await expect(page.title()).resolves.toBe('Not found · Awaken console');
    await page.getByRole('link', { name: 'Threads' }).last().click();
    await page.getByRole('heading', { name: 'Threads' }).waitFor(SEEN);
    await expect(page.title()).resolves.toBe('Threads · Awaken console');
    await everyLook('#/nowhere', 'not-found', (look) =>
      look.getByRole('heading', { name: 'Page not found' }).waitFor(SEEN),
    );
  }, 90_000);

  it('every changed page reads at phone width and in dark mode, and shows keyboard focus', async () => {
    const done = await submit('weather in Lisbon', 'looks-done');
    await settled(done, 'done');
    const waiting = await submit('delete /srv/looks.txt', 'looks-waiting');
    await settled(waiting, 'waiting');
    await everyLook(`#/run/${done}`, 'run-calls', (page) =>
      page.getByRole('table', { name: 'Calls' }).waitFor(SEEN),
    );
    await everyLook(`#/run/${waiting}`, 'run-waiting', (page) =>
      page.getByText('needs a second approver').first().waitFor(SEEN),
    );
    await everyLook('#/inbox', 'inbox', (page) => page.getByTestId('inbox-item').first().waitFor(SEEN));
    await everyLook('#/chat/looks-done', 'chat', (page) =>
      page.getByTestId('message-assistant').first().waitFor(SEEN),
    );
    // dark mode follows the system
    const dark = await session.open('#/threads', { colorScheme: 'dark' });
    await dark.getByTestId('thread-row').first().waitFor(SEEN);
    const background = await dark.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(background).toBe('rgb(15, 17, 23)');
    // a focused control is outlined
    await dark.keyboard.press('Tab');
    await dark.keyboard.press('Tab');
    const outline = await dark.evaluate(() => {
      const focused = document.activeElement as HTMLElement;
      return getComputedStyle(focused).outlineStyle;
    });
    expect(outline).toBe('solid');
    // no script error on any page; the one refusal asked for above (the starter's own link, 403) aside
    expect(session.problems.filter((problem) => !/status of 403/.test(problem))).toEqual([]);
  }, 180_000);
});

describe('the agent picker', () => {
  let several: ConsoleSession;
  beforeAll(async () => {
    // a remote A2A agent configured: the server runs `delegate` beside `demo`
    several = await startConsoleSession({ AWAKEN_A2A_REMOTE_URL: 'http://127.0.0.1:9/v1/a2a' });
  });
  afterAll(async () => {
    await several?.close();
  });

  it('offers the agents when the server runs several, and a message goes to the one picked', async () => {
    const page = await several.open('#/chat/picked-agent');
    const picker = page.getByLabel('Agent');
    await picker.waitFor(SEEN);
    await expect(picker.inputValue()).resolves.toBe('demo');
    await picker.selectOption('delegate');
    await page.getByText('Ask the delegate agent something').waitFor(SEEN);
    await page.getByLabel('Message').fill('hello there');
    await page.keyboard.press('Enter');
    await page.getByTestId('message-assistant').first().waitFor(SEEN);
    await expect
      .poll(
        async () => (await api(several.app.url, '/v1/threads/picked-agent/runs')).body.items[0]?.agentId,
        SEEN,
      )
      .toBe('delegate');
    await several.screenshot(page, 'chat-agent-picker');
    // the app without a remote agent still runs several (its sub-agents and the billing agent):
    // the picker lists them, demo first and picked
    const plain = await session.open('#/chat/one-agent');
    await plain.getByText('Ask the demo agent something').waitFor(SEEN);
    await expect(plain.getByLabel('Agent').inputValue()).resolves.toBe('demo');
    await expect(
      plain
        .getByLabel('Agent')
        .locator('option')
        .evaluateAll((options) => options.map((o) => o.textContent)),
    ).resolves.toEqual(expect.arrayContaining(['demo', 'janitor', 'billing']));
  });
});
