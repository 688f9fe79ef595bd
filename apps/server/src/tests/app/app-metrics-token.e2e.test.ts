import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { type AppServer, startAppServer } from '../../create-app-server';

const TENANT = 'acme-token-0123456789abcdef';
const METRICS = 'scrape-token-0123456789abcdef';

let server: AppServer;
beforeAll(async () => {
  const config = loadConfig({
    PORT: '0',
    AWAKEN_TOKENS: `${TENANT}:acme,globex-token-0123456789abcdef:globex`,
    AWAKEN_METRICS_TOKEN: METRICS,
  });
  server = await startAppServer(config, pino({ level: 'silent' }));
});
afterAll(() => server?.stop());

const scrape = (token?: string) =>
  server.http.app.request('/metrics', token ? { headers: { authorization: `Bearer ${token}` } } : {});

describe('/metrics of the reference server with tokens', () => {
  it('is 401 without a token and with a tenant token (it names every tenant), 200 with AWAKEN_METRICS_TOKEN', async () => {
    const open = await scrape();
    expect(open.status).toBe(401);
    expect(await open.json()).toEqual({
      error: { code: 'unauthorized', message: 'a valid metrics token is required' },
    });
    expect((await scrape(TENANT)).status).toBe(401);
    const scraped = await scrape(METRICS);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('tenant="globex"');
  });

  it('refuses a metrics token that is a tenant token', () => {
    expect(() => loadConfig({ AWAKEN_TOKENS: `${TENANT}:acme`, AWAKEN_METRICS_TOKEN: TENANT })).toThrow(
      /AWAKEN_METRICS_TOKEN/,
    );
  });
});
