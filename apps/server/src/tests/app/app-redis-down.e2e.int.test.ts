import { startRedisServer } from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';

let redis: Awaited<ReturnType<typeof startRedisServer>>;
let app: AppProcess;
beforeAll(async () => {
  redis = await startRedisServer();
  app = await startAppProcess({ REDIS_URL: redis.url, AWAKEN_WORKERS: '1' });
});
afterAll(async () => {
  await app?.kill();
  await redis?.stop().catch(() => undefined);
});

describe('the reference server when its Redis goes away', () => {
  // the app's client queues commands through a short outage (about 25 s): a request waits that long
  // before its 503, while /health answers at once, its probes cut at healthTimeoutMs (2 s)
  it('answers 503 (never 500) and /health says unavailable; /health/live stays 200', {
    timeout: 50_000,
  }, async () => {
    expect((await api(app.url, '/health')).status).toBe(200);
    const thread = await api(app.url, '/v1/threads', { body: { id: 'before' } });
    expect(thread.status).toBe(201);
    await redis.stop();
    await vi.waitFor(
      async () => {
        const started = Date.now();
        const health = await api(app.url, '/health');
        expect(Date.now() - started).toBeLessThan(4_000);
        expect(health.status).toBe(503);
        expect(health.body.status).toBe('unavailable');
        expect(health.body.stores).toMatchObject({ threadRuns: 'unavailable', mailbox: 'unavailable' });
      },
      { timeout: 15_000, interval: 100 },
    );
    const read = await api(app.url, '/v1/threads/before');
    expect(read.status).toBe(503);
    expect(read.body.error.code).toBe('store_failure');
    expect(JSON.stringify(read.body)).not.toMatch(/\n\s+at /);
    expect((await api(app.url, '/health/live')).status).toBe(200);
  });

  it('logs only JSON lines while Redis is away (no client "Unhandled error event" stacks)', {
    // a request waits out the client's retry budget (about 25 s) before its 503
    timeout: 60_000,
  }, async () => {
    // the workers' blocking connections and the subscriber reconnect (and fail) meanwhile
    const submit = await api(app.url, '/v1/mailbox/submit', { body: { agentId: 'demo', input: 'hi' } });
    expect(submit.status).toBe(503);
    const lines = () =>
      app
        .output()
        .split('\n')
        .filter((line) => line.trim() !== '');
    await vi.waitFor(() => expect(lines().some((line) => line.includes('redis'))).toBe(true), {
      timeout: 10_000,
      interval: 100,
    });
    for (const line of lines()) expect(() => JSON.parse(line), line).not.toThrow();
  });
});
