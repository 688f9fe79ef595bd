import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { crashRedis } from '../../../test-support/crash-redis';

describe('RedisMailboxStore durability', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awaken-aof-'));
  let server: RedisServerHandle | undefined;

  afterEach(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every dispatch enqueued before a crash of an AOF everysec Redis', async () => {
    server = await startRedisServer({ dir, appendOnly: true, appendFsync: 'everysec' });
    const { port, url } = server;
    const before = new RedisMailboxStore({ redis: url, prefix: 'durable' });
    const enqueued = await Promise.all(
      Array.from({ length: 500 }, (_, index) =>
        before.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` }),
      ),
    );
    // everysec fsyncs the AOF once a second: after 1.5 s every acknowledged write is on disk.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await before.close();
    await crashRedis(url);

    server = await startRedisServer({ dir, port, appendOnly: true, appendFsync: 'everysec' });
    const after = new RedisMailboxStore({ redis: url, prefix: 'durable' });
    try {
      const claimed = [];
      for (;;) {
        const batch = await after.claim({ workerId: 'after-restart', limit: 100, leaseMs: 60_000 });
        if (batch.length === 0) break;
        claimed.push(...batch);
      }
      expect(new Set(claimed.map((dispatch) => dispatch.dispatchId))).toEqual(
        new Set(enqueued.map((dispatch) => dispatch.dispatchId)),
      );
      expect(claimed).toHaveLength(500);
    } finally {
      await after.close();
    }
  }, 60_000);
});
