import { rmSync } from 'node:fs';
import { AwakenError, type RunDispatch } from '@awaken/contract';
import { type PostgresServerHandle, startPostgresServer } from '@awaken/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresMailboxStore } from '../../postgres-mailbox-store';

/** Calls `call` until it does not fail with a retryable store_failure (the database is away). */
async function persist<T>(call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!AwakenError.hasCode(error, 'store_failure') || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('the database restarted mid-load', () => {
  let server: PostgresServerHandle;
  let dir = '';
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing: every dispatch enqueued before, during and after a SIGKILL of postgres is acked once', async () => {
    server = await startPostgresServer({ durable: true });
    dir = server.dir;
    const { port } = server;
    const store = new PostgresMailboxStore({ postgres: server.url, schema: 'restart', pollMs: 100 });
    const total = 40;
    const acked = new Map<string, number>();
    let enqueued = 0;
    const producer = (async () => {
      for (let index = 0; index < total; index += 1) {
        const dispatchId = `d-${index}`;
        // a caller-chosen id: a re-send whose first run committed answers conflict (already stored)
        await persist(() =>
          store.enqueue({ threadId: `t-${index % 8}`, runId: `r-${index}`, dispatchId }).catch((error) => {
            if (AwakenError.hasCode(error, 'conflict')) return null;
            throw error;
          }),
        );
        enqueued += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const worker = (async () => {
      while ([...acked.values()].length < total) {
        await persist(() => store.reclaimExpiredLeases());
        const batch: RunDispatch[] = await persist(() =>
          store.claim({ workerId: 'w', limit: 5, leaseMs: 2_000 }),
        );
        if (batch.length === 0) await persist(() => store.waitForWork({ timeoutMs: 200 }));
        for (const dispatch of batch) {
          const proof = { dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' };
          // a stale_claim here means the lease lapsed during the outage: the dispatch was reclaimed
          const done = await persist(() => store.ack(proof)).catch((error) => {
            if (AwakenError.hasCode(error, 'stale_claim')) return undefined;
            throw error;
          });
          if (done) acked.set(done.dispatchId, (acked.get(done.dispatchId) ?? 0) + 1);
        }
      }
    })();
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (enqueued >= 10 && acked.size >= 3) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    await server.kill();
    server = await startPostgresServer({ dir, port, durable: true });
    await Promise.all([producer, worker]);
    expect(acked.size).toBe(total);
    expect([...acked.values()].every((count) => count === 1)).toBe(true);
    for (let index = 0; index < total; index += 1) {
      expect(await store.loadDispatch(`d-${index}`)).toMatchObject({ status: 'acked' });
    }
    await store.close();
  }, 120_000);
});
