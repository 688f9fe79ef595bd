import { type RedisStores, createRedisStores } from '@awaken/store-redis';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpFixture, TOKENS, createHttpFixture, startRun } from '../../../test-support/http-fixture';

/** Redis accepts this many connections: fewer than the idle streams the test opens. */
const MAX_CLIENTS = 40;
const STREAMS = 60;

let server: RedisServerHandle;
let admin: RedisStores['redis'];
let stores: Record<'acme' | 'globex', RedisStores>;
let fx: HttpFixture;

beforeAll(async () => {
  server = await startRedisServer();
  stores = {
    acme: createRedisStores({ redis: server.url, prefix: 'acme' }),
    globex: createRedisStores({ redis: server.url, prefix: 'globex' }),
  };
  admin = stores.acme.redis.duplicate();
  await admin.config('SET', 'maxclients', String(MAX_CLIENTS));
  fx = await createHttpFixture({ stores, maxStreamsPerTenant: STREAMS });
});
afterAll(async () => {
  await fx?.close();
  await Promise.all(Object.values(stores ?? {}).map((bundle) => bundle.close()));
  admin?.disconnect();
  await server?.stop();
});

async function connections(): Promise<number> {
  return String(await admin.client('LIST'))
    .trim()
    .split('\n').length;
}

describe('idle event streams on Redis', () => {
  it(`${STREAMS} idle streams of one tenant (Redis maxclients ${MAX_CLIENTS}) add one connection; another tenant's run completes; stream ${STREAMS + 1} is refused 429`, async () => {
    const waiting = await startRun(fx, { input: 'approve:1' });
    const path = `/v1/runs/${waiting.runId}/events?after=${waiting.ids.at(-1)}`;
    const before = await connections();

    const open = await Promise.all(Array.from({ length: STREAMS }, () => fx.call(path)));
    expect(open.every((response) => response.status === 200)).toBe(true);
    // each client reads the stream's opening, then nothing more: its reader waits on the log
    const readers = open.map((response) => response.body?.getReader());
    await Promise.all(readers.map((reader) => reader?.read()));
    // every reader waits on the log once the one shared XREAD is blocked on Redis
    await vi.waitFor(async () => expect(String(await admin.client('LIST'))).toContain('cmd=xread'), {
      timeout: 10_000,
      interval: 20,
    });
    const during = await connections();
    console.info(`Redis connections: ${before} before, ${during} with ${STREAMS} idle streams`);
    expect(during - before).toBeLessThanOrEqual(1);

    const refused = await fx.call(path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).error.code).toBe('too_many_streams');

    // the other tenant's run is executed by a worker and streamed to the end, unhindered
    const other = await startRun(fx, { input: 'plain' }, TOKENS.globex);
    expect(other.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    expect((await fx.json(`/v1/runs/${other.runId}`, { token: TOKENS.globex })).body.status).toBe('done');
    // the other tenant's stores open their own few connections (event-log reader, inbox
    // subscriber), once each: a constant, whatever the number of streams
    const after = await connections();
    console.info(`Redis connections: ${after} after the other tenant's run`);
    expect(after).toBeLessThanOrEqual(during + 3);

    await Promise.all(readers.map((reader) => reader?.cancel()));
  }, 30_000);
});
