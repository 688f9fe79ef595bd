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
  it('answers 503 (never 500) and /health says unavailable; /health/live stays 200', async () => {
    expect((await api(app.url, '/health')).status).toBe(200);
    const thread = await api(app.url, '/v1/threads', { body: { id: 'before' } });
    expect(thread.status).toBe(201);
    await redis.stop();
    await vi.waitFor(
      async () => {
        const health = await api(app.url, '/health');
        expect(health.status).toBe(503);
        expect(health.body.status).toBe('unavailable');
      },
      { timeout: 15_000, interval: 100 },
    );
    const read = await api(app.url, '/v1/threads/before');
    expect(read.status).toBe(503);
    expect(read.body.error.code).toBe('store_failure');
    expect(JSON.stringify(read.body)).not.toMatch(/\n\s+at /);
    expect((await api(app.url, '/health/live')).status).toBe(200);
  });

  it('logs only JSON lines while Redis is away (no client "Unhandled error event" stacks)', async () => {
    // the workers' blocking connections and the subscriber reconnect (and fail) meanwhile
    const submit = await api(app.url, '/v1/mailbox/submit', { body: { agentId: 'demo', input: 'hi' } });
    expect(submit.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const lines = app
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });
});
