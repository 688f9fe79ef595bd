import { AwakenError } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { type FailNthWrite, installFailNthWrite } from '../../../test-support/fail-nth-write';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const TABLES = ['mailbox_threads', 'dispatches', 'requests'];

// mb_claim as migration 9 replaces it (threads locked by key, heads read by index probe): a claim of
// several dispatches under a lost reply, and against a database that fails its N-th row write.
describe('the claim of migration 9', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  let failing: FailNthWrite;
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('claimkey') });
    await stores.migrate();
    failing = await installFailNthWrite(admin, stores.schema, TABLES);
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  const snapshot = (): Promise<string> => failing.snapshot();

  it('claims the head of each free thread once when the reply is lost after the commit', async () => {
    const { mailbox } = stores;
    const first = await mailbox.enqueue({ threadId: 'lost-a', runId: 'a1' });
    await mailbox.enqueue({ threadId: 'lost-a', runId: 'a2' }); // behind a1 on its thread
    const second = await mailbox.enqueue({ threadId: 'lost-b', runId: 'b1' });
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const claimed = await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 });
    expect(proxy.dropped).toBe(before + 1);
    // one per thread, in claim order, each with the token the database holds
    expect(claimed.map((dispatch) => dispatch.dispatchId)).toEqual([first.dispatchId, second.dispatchId]);
    for (const dispatch of claimed) expect(await mailbox.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
    // the re-sent call was answered from its record: nothing else was claimed
    expect(await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 })).toEqual([]);
    for (const dispatch of claimed)
      await mailbox.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
    const [next] = await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 });
    expect(next).toMatchObject({ runId: 'a2', status: 'claimed' });
    await mailbox.ack({ dispatchId: next?.dispatchId ?? '', claimToken: next?.claimToken ?? '' });
  });

  it('a claim of several writes all or nothing when its N-th row write fails', async () => {
    const { mailbox } = stores;
    const ids: string[] = [];
    for (const thread of ['nth-a', 'nth-b', 'nth-c'])
      ids.push((await mailbox.enqueue({ threadId: thread, runId: `${thread}-run` })).dispatchId);
    let failed = 0;
    for (let nth = 1; nth < 50; nth += 1) {
      const before = await snapshot();
      await failing.failAt(nth);
      try {
        const claimed = await mailbox.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
        expect(claimed.map((dispatch) => dispatch.dispatchId)).toEqual(ids);
        break;
      } catch (error) {
        expect(AwakenError.hasCode(error, 'store_failure'), String(error)).toBe(true);
        expect((error as Error).message).toContain('injected failure');
        expect(await snapshot()).toBe(before);
        failed += 1;
      } finally {
        await failing.failAt(null);
      }
    }
    // three dispatches, three thread rows and the reply record: seven writes, each failed once
    expect(failed).toBe(7);
  });
});
