import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);

// The mailbox functions of migration 5 not covered by lost-commit-reply.int.test.ts, and calls
// sent together in one message: a reply lost after COMMIT is answered by the request record.
describe('a lost reply of a mailbox function call, alone or in a message of several', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('lostfn') });
    await stores.migrate();
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  async function withLostReply<T>(call: () => Promise<T>): Promise<T> {
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const result = await call();
    expect(proxy.dropped).toBe(before + 1);
    return result;
  }

  it('applies enqueueAndClaim, extendLease, recordDispatchStart, recordRunResult and deadLetter once', async () => {
    const { mailbox } = stores;
    const claimed = await withLostReply(() =>
      mailbox.enqueueAndClaim({ threadId: 'ft', runId: 'r1', workerId: 'w', leaseMs: 60_000 }),
    );
    expect(claimed.status).toBe('claimed');
    expect(await mailbox.loadDispatch(claimed.dispatchId)).toEqual(claimed); // one claim token
    const proof = { dispatchId: claimed.dispatchId, claimToken: claimed.claimToken ?? '' };
    const extended = await withLostReply(() => mailbox.extendLease({ ...proof, leaseMs: 120_000 }));
    expect(extended.leaseUntil).toBe((extended.updatedAt ?? 0) + 120_000);
    const started = await withLostReply(() =>
      mailbox.recordDispatchStart({ ...proof, dispatchInstanceId: 'i1' }),
    );
    expect(started).toMatchObject({ dispatchInstanceId: 'i1', runStatus: 'running' });
    const recorded = await withLostReply(() =>
      mailbox.recordRunResult({
        ...proof,
        result: { runId: 'r1', dispatchInstanceId: 'i1', status: 'done', response: 'ok' },
      }),
    );
    expect(recorded).toMatchObject({ runStatus: 'done', runResponse: 'ok', status: 'claimed' });
    const dead = await withLostReply(() => mailbox.deadLetter({ ...proof, error: 'gave up' }));
    expect(dead).toMatchObject({ status: 'dead_letter', lastError: 'gave up', attemptCount: 0 });
    expect(await mailbox.loadDispatch(claimed.dispatchId)).toEqual(dead);
  });

  it('answers a dedupe-keyed enqueue with its first reply, not a dedupe conflict with itself', async () => {
    const { mailbox } = stores;
    const first = await withLostReply(() => mailbox.enqueue({ threadId: 'fd', runId: 'r2', dedupeKey: 'k' }));
    expect((await mailbox.listDispatches('fd')).items).toEqual([first]);
  });

  it('applies each call of a message once when the reply is lost after its first COMMIT', async () => {
    const { mailbox } = stores;
    const enqueued = await withLostReply(() =>
      Promise.all([
        mailbox.enqueue({ threadId: 'fb1', runId: 'rb1' }),
        mailbox.enqueue({ threadId: 'fb2', runId: 'rb2' }),
        mailbox.enqueue({ threadId: 'fb3', runId: 'rb3' }),
      ]),
    );
    for (const [index, dispatch] of enqueued.entries()) {
      expect((await mailbox.listDispatches(`fb${index + 1}`)).items).toEqual([dispatch]);
    }
    const claimed = (await mailbox.claim({ workerId: 'w', limit: 10, leaseMs: 60_000 })).filter((d) =>
      d.threadId.startsWith('fb'),
    );
    expect(claimed.map((d) => d.dispatchId).sort()).toEqual(enqueued.map((d) => d.dispatchId).sort());
    const nacked = await withLostReply(() =>
      Promise.all(
        claimed.map((d) =>
          mailbox.nack({ dispatchId: d.dispatchId, claimToken: d.claimToken ?? '', error: 'x' }),
        ),
      ),
    );
    expect(nacked.map((d) => d.attemptCount)).toEqual([1, 1, 1]); // each counted once
    for (const dispatch of nacked) expect(await mailbox.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
  });
});
