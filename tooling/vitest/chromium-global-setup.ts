import { existsSync } from 'node:fs';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-options';

/**
 * Starts one headless Chromium for the whole test run and provides its endpoint; every browser test
 * connects to it (its own contexts) instead of starting a browser per file. Fails with a clear
 * message when the browser is missing instead of skipping.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install Debian's chromium package (.ci/run does)`);
  }
  const server: BrowserServer = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
