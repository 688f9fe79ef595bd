import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../../test-support/app-process';
import {
  type ConsoleSession,
  SCREENSHOT_DIR,
  startConsoleSession,
} from '../../../test-support/console-browser';

let session: ConsoleSession;
const SEEN = { timeout: 20_000 };
const THREADS = 100;
const DEAD = 3;
let oldest: { runId: string };

/** A background run through the API (no stream); its ids. */
async function submit(input: string, threadId: string) {
  const started = await api(session.app.url, '/v1/runs', {
    body: { agentId: 'demo', input, threadId, stream: false },
  });
  expect(started.status).toBe(202);
  return started.body as { runId: string; threadId: string };
}

async function apiCounts(): Promise<
  { queued: number; claimed: number; dead_letter: number; acked: number } & Record<string, number>
> {
  return (await api(session.app.url, '/v1/mailbox/counts')).body.counts;
}

beforeAll(async () => {
  session = await startConsoleSession();
  // 100 threads with a finished run each, then a few runs that end as dead letters
  oldest = await submit('hello #0', 'list-thread-0');
  for (let index = 1; index < THREADS; index += 1) await submit(`hello #${index}`, `list-thread-${index}`);
  for (let index = 0; index < DEAD; index += 1) await submit('fail permanently', `list-dead-${index}`);
  await vi.waitFor(async () => {
    const counts = await apiCounts();
    expect(counts.queued + counts.claimed).toBe(0);
    expect(counts.dead_letter).toBe(DEAD);
  }, SEEN);
}, 120_000);
afterAll(async () => {
  await session?.close();
});

/** Records the API requests a page makes. */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) seen.push(`${url.pathname}${url.search}`);
  });
  return seen;
}

describe('the mailbox and runs list over many threads, in Chromium', () => {
  it('the mailbox makes a constant number of requests per refresh with 100 threads, and its counts are the API counts', async () => {
    const page = await session.open('#/mailbox');
    const requests = recordRequests(page);
    const countsRequest = () =>
      page.waitForRequest((request) => request.url().includes('/v1/mailbox/counts'), SEEN);
    // three refreshes: what is asked between the second and the third is one refresh's worth
    await countsRequest();
    await countsRequest();
    const before = requests.length;
    await countsRequest();
    const perRefresh = requests.slice(before - 1, requests.length - 1);
    expect(perRefresh.length).toBeLessThanOrEqual(4);
    expect(requests.filter((path) => path.startsWith('/v1/threads'))).toEqual([]);

    const expected = await apiCounts();
    for (const [status, count] of Object.entries(expected)) {
      await expect
        .poll(() => page.getByTestId(`count-${status}`).getAttribute('data-count'), SEEN)
        .toBe(String(count));
    }
    expect(expected.acked).toBeGreaterThanOrEqual(THREADS);
    await expect(page.getByTestId('dead-letter-count').textContent()).resolves.toBe(String(DEAD));
    await expect(page.getByTestId('dead-letter').count()).resolves.toBe(DEAD);

    // a dispatch's detail: attempts, errors, links to its run and thread
    const letter = page.getByTestId('dead-letter').first();
    await letter.getByRole('button', { name: /^Details of dispatch/ }).click();
    const detail = letter.getByRole('definition').filter({ hasText: 'the demo model refuses' });
    await detail.first().waitFor(SEEN);
    await letter.getByText('Attempts', { exact: true }).waitFor(SEEN);
    const runLink = letter.locator('dl').getByRole('link').first();
    await expect(runLink.getAttribute('href')).resolves.toMatch(/^#\/run\//);
    await expect(
      letter
        .locator('dl')
        .getByRole('link', { name: /^list-dead-/ })
        .count(),
    ).resolves.toBe(1);
    await session.screenshot(page, 'mailbox-laptop');

    // the acked tab pages through its dispatches (25 a page)
    await page.getByRole('tab', { name: /^acked/ }).click();
    await expect.poll(() => page.getByTestId('dispatch-row').count(), SEEN).toBe(25);
    await page
      .getByRole('navigation', { name: 'Dispatch pages' })
      .getByRole('button', { name: 'Older' })
      .click();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Dispatch pages' }).textContent(), SEEN)
      .toContain('Page 2');

    // purge all dead letters, confirmed with the count shown
    const dead = page.getByRole('region', { name: 'Dead letters' });
    await dead.getByRole('button', { name: `Purge all ${DEAD}` }).click();
    await dead.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Purged ${DEAD} dead letters.` })
      .waitFor(SEEN);
    expect((await apiCounts()).dead_letter).toBe(0);
    await page.getByTestId('dead-letters-empty').waitFor(SEEN);
    expect(session.problems).toEqual([]);

    const phone = await session.open('#/mailbox', { width: 390, height: 844 });
    await phone.getByTestId('count-acked').waitFor(SEEN);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await session.screenshot(phone, 'mailbox-phone');
  });

  it('the runs list pages past 100 runs, filters by status and search, and shows status at phone width', async () => {
    const page = await session.open('#/runs');
    const rows = page.getByTestId('run-row');
    await expect.poll(() => rows.count(), SEEN).toBe(50);
    await expect(rows.first().textContent()).resolves.toContain('fail permanently');
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pages.textContent(), SEEN).toContain('Page 2');
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pages.textContent(), SEEN).toContain('Page 3');
    await page.getByRole('link', { name: oldest.runId }).waitFor(SEEN);
    await expect(page.getByText('hello #0', { exact: true }).count()).resolves.toBe(1);
    await session.screenshot(page, 'runs-laptop');

    await page.getByRole('tab', { name: 'failed' }).click();
    await expect.poll(() => rows.count(), SEEN).toBe(DEAD);
    for (const status of await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-status')))) {
      expect(status).toBe('done');
    }
    await expect(page.locator('.badge.failed').count()).resolves.toBe(DEAD);
    await page.getByRole('tab', { name: 'waiting' }).click();
    await page.getByText('No waiting runs').waitFor(SEEN);

    await page.getByRole('tab', { name: 'all' }).click();
    await page.getByLabel('Text').fill('hello #42');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => rows.count(), SEEN).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('hello #42');

    const phone = await session.open('#/runs', { width: 390, height: 844 });
    const status = phone.getByRole('columnheader', { name: 'Status' });
    await status.waitFor(SEEN);
    const badge = phone.getByTestId('run-row').first().locator('.badge');
    await badge.waitFor(SEEN);
    const box = await badge.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const wrap = await phone
      .locator('.table-wrap')
      .evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(wrap).toBeLessThanOrEqual(0);
    await session.screenshot(phone, 'runs-phone');
    await phone.screenshot({ path: `${SCREENSHOT_DIR}runs-phone-viewport.png` });
    expect(session.problems).toEqual([]);
  });
});
