import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createConsoleApp, mountConsole } from './create-console-app';
import { STATIC_DIR } from './static-files';

const script = readdirSync(`${STATIC_DIR}assets`).find((name) => name.endsWith('.js')) ?? '';

function appWithApi() {
  const app = new Hono();
  app.get('/v1/inbox', (c) => c.json({ items: [] }));
  app.notFound((c) => c.json({ error: { code: 'route_not_found' } }, 404));
  return app;
}

describe('mountConsole', () => {
  it('serves the prebuilt page at / with the API base and title, and its hashed assets as immutable', async () => {
    const app = mountConsole(appWithApi(), { apiBase: '/api', title: 'Ops <console>' });
    const page = await app.request('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<meta name="awaken-api-base" content="/api">');
    expect(html).toContain('<title>Ops &lt;console&gt;</title>');
    expect(html).toContain(`./assets/${script}`);
    const asset = await app.request(`/assets/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await app.request('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('sends the script brotli- or gzip-compressed when the browser accepts it, the same bytes inflated', async () => {
    const app = mountConsole(appWithApi());
    const plain = await app.request(`/assets/${script}`);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('accept-encoding');
    const bytes = Buffer.from(await plain.arrayBuffer());
    const br = await app.request(`/assets/${script}`, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(bytes.length / 2);
    expect(brotliDecompressSync(brBytes).equals(bytes)).toBe(true);
    const gzip = await app.request(`/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).equals(bytes)).toBe(true);
  });

  it("leaves every other path to the app: the API and the app's own 404s", async () => {
    const app = mountConsole(appWithApi());
    expect(await (await app.request('/v1/inbox')).json()).toEqual({ items: [] });
    const missing = await app.request('/v1/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'route_not_found' } });
    expect((await app.request('/assets/missing.js')).status).toBe(404);
    expect((await app.request('/assets/..%2Fpackage.json')).status).toBe(404);
    expect((await app.request('/assets/%5C..%5Cpackage.json')).status).toBe(404);
  });

  it('under a base path: redirects the bare path to its slash form and serves nothing outside it', async () => {
    const app = new Hono().route('/', createConsoleApp({ path: '/console' }));
    const bare = await app.request('/console');
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/console/');
    expect((await app.request('/console/')).status).toBe(200);
    expect((await app.request(`/console/assets/${script}`)).status).toBe(200);
    expect((await app.request('/')).status).toBe(404);
    expect(() => createConsoleApp({ path: 'console"><script>' })).toThrow(/console path/);
  });

  it('answers 503 naming the build command when the build is missing', async () => {
    const app = mountConsole(new Hono(), { staticDir: `${mkdtempSync(`${tmpdir()}/console-`)}/` });
    const response = await app.request('/');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('build:web');
  });
});
