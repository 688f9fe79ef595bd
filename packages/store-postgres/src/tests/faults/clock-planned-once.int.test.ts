import { AwakenError } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { type FailNthWrite, installFailNthWrite } from '../../../test-support/fail-nth-write';
import { adminPool, dropSchema, freezeClock, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const TABLES = ['mailbox_threads', 'dispatches', 'requests'];

// The store clock as migration 10 replaces it (PL/pgSQL, planned once per connection): read by every
// store function first, so the mailbox cycle's functions are checked again through it — the frozen
// test clock and the database clock, each call's reply lost after its commit, and each call against a
// database that fails its N-th row write.
describe('the clock of migration 10 in the enqueue → claim → ack cycle', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  let failing: FailNthWrite;
  let s = '';
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('clock10'), testClock: true });
    await stores.migrate();
    s = `"${stores.schema}"`;
    failing = await installFailNthWrite(admin, stores.schema, TABLES);
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  const snapshot = (): Promise<string> => failing.snapshot();

  async function withLostReply<T>(call: () => Promise<T>): Promise<T> {
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const result = await call();
    expect(proxy.dropped).toBe(before + 1);
    return result;
  }

  it('reads the frozen test clock, and the database clock once the test clock is cleared', async () => {
    const { mailbox } = stores;
    await freezeClock(admin, stores.schema, 5_000_000);
    const queued = await mailbox.enqueue({ threadId: 'clock-frozen', runId: 'f1' });
    expect(queued).toMatchObject({ createdAt: 5_000_000, updatedAt: 5_000_000, availableAt: 5_000_000 });
    const [claimed] = await mailbox.claim({ workerId: 'w', limit: 1, leaseMs: 1_000 });
    expect(claimed).toMatchObject({
      dispatchId: queued.dispatchId,
      updatedAt: 5_000_000,
      leaseUntil: 5_001_000,
    });
    const acked = await mailbox.ack({ dispatchId: queued.dispatchId, claimToken: claimed?.claimToken ?? '' });
    expect(acked).toMatchObject({ status: 'acked', updatedAt: 5_000_000 });
    await admin.query(`DELETE FROM ${s}.test_clock`);
    const before = Date.now();
    const live = await mailbox.enqueue({ threadId: 'clock-live', runId: 'l1' });
    const after = Date.now();
    // the database clock of this machine (a second of slack for the two clocks' readings)
    expect(live.createdAt).toBeGreaterThanOrEqual(before - 1_000);
    expect(live.createdAt).toBeLessThanOrEqual(after + 1_000);
    const [again] = await mailbox.claim({ workerId: 'w', limit: 1, leaseMs: 1_000 });
    await mailbox.ack({ dispatchId: live.dispatchId, claimToken: again?.claimToken ?? '' });
  });

  it('applies an enqueue, a claim and an ack once each when their replies are lost after the commit', async () => {
    const { mailbox } = stores;
    await freezeClock(admin, stores.schema, 6_000_000);
    const queued = await withLostReply(() => mailbox.enqueue({ threadId: 'lost-cycle', runId: 'c1' }));
    expect(await mailbox.loadDispatch(queued.dispatchId)).toEqual(queued);
    const claimed = await withLostReply(() => mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 }));
    expect(claimed.map((dispatch) => dispatch.dispatchId)).toEqual([queued.dispatchId]);
    expect(await mailbox.loadDispatch(queued.dispatchId)).toEqual(claimed[0]);
    // answered from the record: nothing else was queued or claimed
    expect(await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 })).toEqual([]);
    const acked = await withLostReply(() =>
      mailbox.ack({ dispatchId: queued.dispatchId, claimToken: claimed[0]?.claimToken ?? '' }),
    );
    expect(acked).toMatchObject({ status: 'acked', updatedAt: 6_000_000 });
    expect(await mailbox.loadDispatch(queued.dispatchId)).toEqual(acked);
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM ${s}.dispatches WHERE thread_id = 'lost-cycle'`,
    );
    expect(rows[0]?.n).toBe(1);
  });

  /** Runs `call` with the N-th row write failing, N = 1, 2, …, until it succeeds; returns how many failed. */
  async function failEachWrite<T>(call: () => Promise<T>): Promise<number> {
    let failed = 0;
    for (let nth = 1; nth < 20; nth += 1) {
      const before = await snapshot();
      await failing.failAt(nth);
      try {
        await call();
        return failed;
      } catch (error) {
        expect(AwakenError.hasCode(error, 'store_failure'), String(error)).toBe(true);
        expect((error as Error).message).toContain('injected failure');
        expect(await snapshot()).toBe(before);
        failed += 1;
      } finally {
        await failing.failAt(null);
      }
    }
    throw new Error('the call never succeeded');
  }

  it('writes an enqueue, a claim and an ack all or nothing when the N-th row write fails', async () => {
    const { mailbox } = stores;
    await freezeClock(admin, stores.schema, 7_000_000);
    let dispatchId = '';
    // the thread row, the dispatch and the reply record
    expect(
      await failEachWrite(async () => {
        dispatchId = (await mailbox.enqueue({ threadId: 'nth-cycle', runId: 'n1' })).dispatchId;
      }),
    ).toBe(3);
    let token = '';
    // the dispatch, the thread row and the reply record
    expect(
      await failEachWrite(async () => {
        const [claimed] = await mailbox.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
        expect(claimed?.dispatchId).toBe(dispatchId);
        token = claimed?.claimToken ?? '';
      }),
    ).toBe(3);
    // the dispatch, the thread row and the reply record
    expect(
      await failEachWrite(async () => {
        expect(await mailbox.ack({ dispatchId, claimToken: token })).toMatchObject({ status: 'acked' });
      }),
    ).toBe(3);
  });
});
