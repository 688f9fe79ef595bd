import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { crashRedis } from '../../../test-support/crash-redis';

type Settled = { ok: true } | { ok: false; code: string };

describe('writes in flight when Redis is killed and restarted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awaken-kill-'));
  let server: RedisServerHandle | undefined;

  afterEach(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every enqueue once, none with conflict, after ioredis re-sends them (AOF always)', async () => {
    server = await startRedisServer({ dir, appendOnly: true, appendFsync: 'always' });
    const { port, url } = server;
    const store = new RedisMailboxStore({ redis: url, prefix: 'kill' });
    store.redis.on('error', () => undefined); // the connection errors are expected here
    const total = 4_000;
    let settled = 0;
    const results = Array.from({ length: total }, (_, index) =>
      store
        .enqueue({ threadId: `thread-${index % 40}`, runId: `run-${index}`, dispatchId: `dispatch-${index}` })
        .then(
          (): Settled => ({ ok: true }),
          (error: { code?: string }): Settled => ({ ok: false, code: error.code ?? String(error) }),
        )
        .finally(() => {
          settled += 1;
        }),
    );
    // Kill Redis while replies are streaming back: some scripts ran (and are in the AOF) but their
    // replies never arrive, so ioredis re-sends them to the restarted server.
    await vi.waitFor(() => expect(settled).toBeGreaterThan(total / 4), { interval: 1, timeout: 30_000 });
    await crashRedis(url);
    server = await startRedisServer({ dir, port, appendOnly: true, appendFsync: 'always' });
    const outcomes = await Promise.all(results);
    try {
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
      let listed = 0;
      for (let thread = 0; thread < 40; thread += 1) {
        listed += (await store.listDispatches(`thread-${thread}`, { limit: 1000 })).items.length;
      }
      expect(listed).toBe(total);
    } finally {
      await store.close();
    }
  }, 60_000);
});
