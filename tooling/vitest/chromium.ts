import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';

export { CHROMIUM_PATH } from './chromium-options';

/**
 * The run's headless Chromium (started once by `chromium-global-setup`; playwright-core cannot
 * download its own browser here). Each caller gets its own connection: `close()` disconnects it and
 * closes its contexts, the browser stays up for the other files.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.connect(inject('chromiumWsEndpoint'));
}
