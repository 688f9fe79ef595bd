import { AwakenError, type NewMessage } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const message: NewMessage = { visibility: 'external', message: { role: 'user', content: 'hi' } };
const admin = adminPool(url);
const event = (runId: string, seq: number) => ({
  type: 'text_delta' as const,
  runId,
  seq,
  at: 1,
  messageId: 'm',
  delta: `d${seq}`,
});

describe('a reply lost after COMMIT (the connection dropped) is answered by the request record', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('lost') });
    await stores.migrate();
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  /** Runs `call` with the reply of its COMMIT dropped; checks a reply was indeed lost. */
  async function withLostReply<T>(call: () => Promise<T>): Promise<T> {
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const result = await call();
    expect(proxy.dropped).toBe(before + 1);
    return result;
  }

  it('answers every mutating mailbox call with its first reply, applied once', async () => {
    const { mailbox } = stores;
    const enqueued = await withLostReply(() => mailbox.enqueue({ threadId: 'mt', runId: 'r1' }));
    expect((await mailbox.listDispatches('mt')).items.map((d) => d.dispatchId)).toEqual([
      enqueued.dispatchId,
    ]);
    const [claimed] = await withLostReply(() => mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 }));
    expect(claimed).toMatchObject({ dispatchId: enqueued.dispatchId, status: 'claimed' });
    expect(await mailbox.loadDispatch(enqueued.dispatchId)).toEqual(claimed);
    const proof = { dispatchId: enqueued.dispatchId, claimToken: claimed?.claimToken ?? '' };
    const nacked = await withLostReply(() => mailbox.nack({ ...proof, error: 'boom' }));
    expect(nacked).toMatchObject({ status: 'queued', attemptCount: 1 }); // counted once
    const [again] = await mailbox.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
    const acked = await withLostReply(() =>
      mailbox.ack({ dispatchId: enqueued.dispatchId, claimToken: again?.claimToken ?? '' }),
    );
    expect(acked.status).toBe('acked');
    const interrupted = await withLostReply(() => mailbox.interrupt('mt'));
    expect(interrupted.newDispatchEpoch).toBe(1);
    expect(await mailbox.threadEpoch('mt')).toBe(1); // bumped once
  });

  it('answers thread, run, event-log and inbox writes with their first reply, applied once', async () => {
    const { threadRuns, eventLog, inbox } = stores;
    await withLostReply(() => threadRuns.createThread({ id: 'tt' }));
    const appended = await withLostReply(() =>
      threadRuns.appendMessages('tt', { expectedLength: 0, messages: [message] }),
    );
    expect(appended.map((record) => record.seq)).toEqual([1]);
    expect(await threadRuns.messageCount('tt')).toBe(1);
    await withLostReply(() => eventLog.append('run-x', [event('run-x', 1), event('run-x', 2)]));
    expect(await eventLog.lastSeq('run-x')).toBe(2);
    const stored = await withLostReply(() => inbox.put('run-x', { kind: 'cancel', id: 'c1', at: 1 }));
    expect(stored).toBe('stored');
    expect(await inbox.peek('run-x')).toHaveLength(1);
  });

  it('without request records (requestTtlMs 0) the re-sent call runs again: what the record prevents', async () => {
    const bare = createPostgresStores({ postgres: proxy.url, schema: stores.schema, requestTtlMs: 0 });
    try {
      await bare.threadRuns.createThread({ id: 'bare' });
      proxy.dropNextCommitReply();
      const error = await bare.threadRuns
        .appendMessages('bare', { expectedLength: 0, messages: [message] })
        .catch((caught: unknown) => caught);
      expect(AwakenError.hasCode(error, 'stale_append')).toBe(true);
      expect(await bare.threadRuns.messageCount('bare')).toBe(1);
    } finally {
      await bare.close();
    }
  });
});
