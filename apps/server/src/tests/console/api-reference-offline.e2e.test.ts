import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

let session: ConsoleSession;
beforeAll(async () => {
  session = await startConsoleSession();
});
afterAll(async () => {
  await session?.close();
});

describe('the API reference page, with no internet', () => {
  it('renders from the installed package while every non-loopback request is blocked', async () => {
    const page = await session.open('');
    const blocked: string[] = [];
    await page.context().route('**/*', (route) => {
      const { hostname } = new URL(route.request().url());
      if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
      blocked.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    await page.goto(`${session.app.url}/reference`);
    // Scalar renders the document's title and its operations: the page is not blank
    await page.getByRole('heading', { name: 'Awaken API' }).waitFor({ timeout: 20_000 });
    await page.getByText('Liveness: the process serves requests').first().waitFor({ timeout: 20_000 });
    await session.screenshot(page, 'api-reference-offline');
    // nothing comes from elsewhere: no script, no font
    expect(blocked).toEqual([]);
  });

  it('serves its script from the installed package, gzipped and cacheable', async () => {
    const response = await fetch(`${session.app.url}/reference/standalone.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toContain('max-age');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    // fetch inflates it: the body is the Scalar bundle itself
    expect(await response.text()).toContain('createApiReference');
  });
});
