import { type RunDispatch, runDispatchSchema } from '@awaken/contract';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { PostgresMailboxStore } from '../../postgres-mailbox-store';
import { forkWorker, startWorker } from '../../../test-support/fork-worker';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

describe('PostgresMailboxStore across processes', () => {
  const url = inject('postgresUrl');
  const admin = adminPool(url);
  let store: PostgresMailboxStore | undefined;
  afterAll(() => admin.end());
  afterEach(async () => {
    if (store === undefined) return;
    await store.close();
    await dropSchema(admin, store.db.schema);
    store = undefined;
  });

  it('has 4 processes claim 120 dispatches: each claimed and acked exactly once, none lost', async () => {
    store = new PostgresMailboxStore({ postgres: url, schema: uniqueSchema('procs') });
    const s = store;
    await s.db.ready();
    await admin.query(`CREATE TABLE "${s.db.schema}".test_barrier (ready integer NOT NULL)`);
    await admin.query(`INSERT INTO "${s.db.schema}".test_barrier VALUES (0)`);
    const total = 120;
    const enqueued: RunDispatch[] = [];
    for (let index = 0; index < total; index += 1) {
      enqueued.push(
        await s.enqueue({ threadId: `thread-${index % 40}`, runId: `run-${index}`, priority: index % 3 }),
      );
    }
    const results = await Promise.all(
      [1, 2, 3, 4].map((worker) =>
        forkWorker<string[]>(['claim', url, s.db.schema, `worker-${worker}`, String(total), '4']),
      ),
    );
    const claimed = results.flat();
    expect(claimed).toHaveLength(total);
    expect(new Set(claimed)).toEqual(new Set(enqueued.map((dispatch) => dispatch.dispatchId)));
    expect(results.every((ids) => ids.length > 0)).toBe(true);
    for (const dispatch of enqueued) {
      const stored = runDispatchSchema.parse(await s.loadDispatch(dispatch.dispatchId));
      expect(stored).toMatchObject({ status: 'acked', attemptCount: 0 });
    }
  }, 120_000);

  it('requeues the leases of a worker killed with SIGKILL once they expire, and another worker finishes them', async () => {
    store = new PostgresMailboxStore({ postgres: url, schema: uniqueSchema('kill') });
    const s = store;
    const enqueued = [];
    for (let index = 0; index < 6; index += 1) {
      enqueued.push(await s.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` }));
    }
    const worker = startWorker<string[]>(['hold', url, s.db.schema, 'doomed', '4', '1500']);
    const held = await worker.report;
    expect(held).toHaveLength(4);
    const exited = new Promise((resolve) => worker.child.once('exit', resolve));
    worker.child.kill('SIGKILL');
    await exited;
    // While the leases run, the dispatches stay claimed by the dead worker; nobody else gets them.
    const others = await s.claim({ workerId: 'survivor', limit: 10, leaseMs: 30_000 });
    expect(others.map((dispatch) => dispatch.dispatchId).sort()).toEqual(
      enqueued
        .map((dispatch) => dispatch.dispatchId)
        .filter((id) => !held.includes(id))
        .sort(),
    );
    const reclaimed: RunDispatch[] = [];
    await vi.waitFor(
      async () => {
        reclaimed.push(...(await s.reclaimExpiredLeases()));
        expect(reclaimed).toHaveLength(4);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(reclaimed.map((dispatch) => dispatch.dispatchId).sort()).toEqual([...held].sort());
    for (const dispatch of reclaimed) {
      expect(dispatch).toMatchObject({
        status: 'queued',
        attemptCount: 1,
        lastError: 'lease of doomed expired',
      });
    }
    for (const dispatch of others)
      await s.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
    const retried = await s.claim({ workerId: 'survivor', limit: 10, leaseMs: 30_000 });
    expect(retried.map((dispatch) => dispatch.dispatchId).sort()).toEqual([...held].sort());
    for (const dispatch of retried)
      await s.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
    for (const dispatch of enqueued) {
      expect(await s.loadDispatch(dispatch.dispatchId)).toMatchObject({ status: 'acked' });
    }
  }, 60_000);
});
