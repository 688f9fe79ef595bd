import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunDispatch } from '@awaken/contract';
import { type RedisServerHandle, startRedisServer } from '@awaken/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { crashRedis } from '../../../test-support/crash-redis';

// Batched acks in flight when Redis is killed (SIGKILL) and restarted: ioredis re-sends the script
// calls whose replies never came; each ack is answered `acked` once (the recorded reply of its batch
// survived in the AOF with the writes), never `stale_claim`, and every thread is free again.

describe('batched acks in flight when Redis is killed and restarted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awaken-kill-acks-'));
  let server: RedisServerHandle | undefined;

  afterEach(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every ack acked, none stale_claim (AOF always)', async () => {
    server = await startRedisServer({ dir, appendOnly: true, appendFsync: 'always' });
    const { port, url } = server;
    const store = new RedisMailboxStore({ redis: url, prefix: 'kill' });
    store.redis.on('error', () => undefined); // the connection errors are expected here
    try {
      const total = 3_000;
      await Promise.all(
        Array.from({ length: total }, (_, index) =>
          store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}`, dispatchId: `a-${index}` }),
        ),
      );
      // A second dispatch per thread: readied by its thread's ack.
      await Promise.all(
        Array.from({ length: total }, (_, index) =>
          store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}`, dispatchId: `b-${index}` }),
        ),
      );
      const claimed: RunDispatch[] = [];
      while (claimed.length < total) {
        claimed.push(...(await store.claim({ workerId: 'w', limit: 1_000, leaseMs: 600_000 })));
      }
      expect(new Set(claimed.map((dispatch) => dispatch.dispatchId.slice(0, 2)))).toEqual(new Set(['a-']));
      let settled = 0;
      const results = claimed.map((dispatch) =>
        store
          .ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' })
          .then(
            (acked) => acked.status as string,
            (error: { code?: string }) => error.code ?? String(error),
          )
          .finally(() => {
            settled += 1;
          }),
      );
      await vi.waitFor(() => expect(settled).toBeGreaterThan(total / 4), { interval: 1, timeout: 30_000 });
      await crashRedis(url);
      server = await startRedisServer({ dir, port, appendOnly: true, appendFsync: 'always' });
      const outcomes = await Promise.all(results);
      expect(outcomes.filter((outcome) => outcome !== 'acked')).toEqual([]);
      const next: RunDispatch[] = [];
      for (;;) {
        const batch = await store.claim({ workerId: 'w', limit: 1_000, leaseMs: 600_000 });
        if (batch.length === 0) break;
        next.push(...batch);
      }
      expect(next.map((dispatch) => dispatch.dispatchId).sort()).toEqual(
        claimed.map((dispatch) => `b-${dispatch.dispatchId.slice(2)}`).sort(),
      );
    } finally {
      await store.close();
    }
  }, 90_000);
});
