import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@awaken/vitest-setup/chromium';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type AppProcess, api, readSse, startAppProcess } from './app-process';

/** Where the browser tests write their screenshots (a reviewer looks at them; not committed). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../test-output/console/', import.meta.url));
/** The README's images: written when `UPDATE_README_IMAGES=1`. */
export const README_IMAGE_DIR = fileURLToPath(new URL('../../../docs/images/', import.meta.url));

export interface ConsoleSession {
  app: AppProcess;
  browser: Browser;
  /** A fresh page (its own context) at `hash`, recording console errors; light unless `colorScheme` says dark. */
  open(
    hash: string,
    options?: { width?: number; height?: number; colorScheme?: 'light' | 'dark' },
  ): Promise<Page>;
  /** Console errors and failed requests seen by every page so far. */
  problems: string[];
  /** Writes `<name>.png` under the test output folder (and to docs/images when asked). */
  screenshot(page: Page, name: string, options?: { readme?: string }): Promise<void>;
  close(): Promise<void>;
}

/** Starts the reference app (as `pnpm start` does) on a free port and a headless Chromium. */
export async function startConsoleSession(env: Record<string, string> = {}): Promise<ConsoleSession> {
  const app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5', ...env });
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    app,
    browser,
    problems,
    async open(hash, options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 820 },
        colorScheme: options.colorScheme ?? 'light',
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        // a chat opened on a thread id nobody used yet reads a 404: a new, empty chat, not a problem
        const url = message.location().url;
        if (/404/.test(message.text()) && /\/v1\/threads\/[^/]+\/(messages|runs)\b/.test(url)) return;
        problems.push(`console: ${message.text()}${url ? ` (${url})` : ''}`);
      });
      page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
      await page.goto(`${app.url}/${hash}`);
      return page;
    },
    async screenshot(page, name, options = {}) {
      await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
      if (options.readme && process.env.UPDATE_README_IMAGES === '1') {
        mkdirSync(README_IMAGE_DIR, { recursive: true });
        await page.screenshot({ path: `${README_IMAGE_DIR}${options.readme}.png` });
      }
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await app.stop();
    },
  };
}

/** Every event of a run so far: each activation's part of its log (the stream ends at each run_finish). */
export async function runEvents(
  url: string,
  runId: string,
  token?: string,
): Promise<Array<Record<string, any>>> {
  const all: Array<Record<string, any>> = [];
  for (;;) {
    const after = all.at(-1)?.seq ?? 0;
    const response = await fetch(`${url}/v1/runs/${encodeURIComponent(runId)}/events?after=${after}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const { events } = await readSse(response);
    all.push(...events);
    const last = all.at(-1);
    if (events.length === 0 || (last?.type === 'run_finish' && last.status === 'done')) return all;
    if (last?.type === 'run_finish' && last.status === 'waiting') {
      const run = await api(url, `/v1/runs/${encodeURIComponent(runId)}`, token ? { token } : {});
      if (run.body?.status === 'waiting') return all;
    }
  }
}

/** The runs of a thread, newest first. */
export async function threadRuns(url: string, threadId: string, token?: string): Promise<any[]> {
  const page = await api(url, `/v1/threads/${encodeURIComponent(threadId)}/runs`, token ? { token } : {});
  return page.body?.items ?? [];
}

/** How many times `toolName` ran to success in the thread: its tool messages (internal ones too). */
export async function succeededCalls(url: string, threadId: string, toolName: string): Promise<number> {
  const page = await api(url, `/v1/threads/${encodeURIComponent(threadId)}/messages?limit=1000`);
  const records: Array<{ message: Record<string, unknown> }> = page.body?.items ?? [];
  return records.filter(
    ({ message }) =>
      message.role === 'tool' && message.toolName === toolName && message.outcome === 'succeeded',
  ).length;
}
