import type { RunDispatch } from '@awaken/contract';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { advanceClock, deleteKeys, freezeClock, uniquePrefix } from '../../../test-support/redis-harness';

// Scripts build their replies from the record they read plus the writes they made (no second read);
// these tests pin that every reply is exactly what a later read of the dispatch returns.
describe('RedisMailboxStore replies', () => {
  let store: RedisMailboxStore;

  beforeEach(async () => {
    store = new RedisMailboxStore({
      redis: inject('redisUrl'),
      prefix: uniquePrefix('replies'),
      testClock: true,
    });
    await freezeClock(store);
  });

  afterEach(async () => {
    await deleteKeys(store.redis, store.prefix);
    await store.close();
  });

  async function expectStored(reply: RunDispatch): Promise<RunDispatch> {
    expect(await store.loadDispatch(reply.dispatchId)).toEqual(reply);
    return reply;
  }

  const proof = (dispatch: RunDispatch) => ({
    dispatchId: dispatch.dispatchId,
    claimToken: dispatch.claimToken ?? '',
  });

  async function claimNext(): Promise<RunDispatch> {
    const [claimed] = await store.claim({ workerId: 'w1', limit: 1, leaseMs: 1_000 });
    if (!claimed) throw new Error('nothing claimed');
    return expectStored(claimed);
  }

  it('returns what is stored through a claim, lease, run result, nack and dead letter', async () => {
    await expectStored(await store.enqueue({ threadId: 't1', runId: 'r1', dedupeKey: 'k1', maxAttempts: 2 }));
    const claimed = await claimNext();
    await expectStored(await store.extendLease({ ...proof(claimed), leaseMs: 5_000 }));
    await expectStored(await store.recordDispatchStart({ ...proof(claimed), dispatchInstanceId: 'i1' }));
    const result = { runId: 'r1', dispatchInstanceId: 'i1', status: 'done' as const };
    await expectStored(
      await store.recordRunResult({
        ...proof(claimed),
        result: { ...result, termination: { type: 'natural_end' }, response: 'ok' },
      }),
    );
    const replaced = await expectStored(await store.recordRunResult({ ...proof(claimed), result }));
    expect(replaced.termination).toBeUndefined();
    const requeued = await expectStored(await store.nack({ ...proof(claimed), error: 'boom' }));
    expect(requeued).toMatchObject({ status: 'queued', attemptCount: 1, lastError: 'boom' });
    const again = await claimNext();
    const dead = await expectStored(await store.nack({ ...proof(again), error: 'boom again' }));
    expect(dead).toMatchObject({ status: 'dead_letter', attemptCount: 2 });
    expect(dead.claimToken).toBeUndefined();
    // the dedupe key is free again, and a parked dispatch of the thread became claimable
    await expectStored(await store.enqueue({ threadId: 't1', runId: 'r2', dedupeKey: 'k1' }));
    await expectStored(await store.deadLetter({ ...proof(await claimNext()), error: 'gave up' }));
  });

  it('returns what is stored through cancel, interrupt, supersede, reclaim and claim by id', async () => {
    const first = await expectStored(await store.enqueue({ threadId: 't1', runId: 'r1' }));
    const queued = await expectStored(await store.enqueue({ threadId: 't1', runId: 'r2' }));
    const cancelled = await expectStored(await store.enqueue({ threadId: 't2', runId: 'r3' }));
    await expectStored(await store.cancel(cancelled.dispatchId));
    const claimed = await store.claimDispatch({
      dispatchId: first.dispatchId,
      workerId: 'w1',
      leaseMs: 1_000,
    });
    if (!claimed) throw new Error('not claimed');
    await expectStored(claimed);
    const interrupted = await store.interrupt('t1');
    expect(interrupted.supersededCount).toBe(1);
    expect(interrupted.activeDispatch).toEqual(await store.loadDispatch(first.dispatchId));
    expect(await store.loadDispatch(queued.dispatchId)).toMatchObject({ status: 'superseded' });
    await expectStored(await store.supersedeClaimed(first.dispatchId));

    await store.enqueue({ threadId: 't3', runId: 'r4', maxAttempts: 5 });
    await claimNext();
    await advanceClock(store, 1_001);
    const [reclaimed] = await store.reclaimExpiredLeases();
    if (!reclaimed) throw new Error('nothing reclaimed');
    expect(reclaimed).toMatchObject({ status: 'queued', attemptCount: 1, lastError: 'lease of w1 expired' });
    await expectStored(reclaimed);
    await claimNext();
  });

  it('keeps the packed inputs apart when the run id holds their separator', async () => {
    await store.interrupt('t4');
    const runId = '7,3,1,9,run,with,commas';
    const enqueued = await expectStored(
      await store.enqueue({ threadId: 't4', runId, priority: 12, maxAttempts: 4 }),
    );
    expect(enqueued).toMatchObject({ runId, priority: 12, maxAttempts: 4, dispatchEpoch: 1 });
    const claimed = await claimNext();
    expect(claimed).toMatchObject({ runId, priority: 12, maxAttempts: 4, dispatchEpoch: 1 });
    const result = { runId, dispatchInstanceId: 'i1', status: 'done' as const };
    await expectStored(await store.recordRunResult({ ...proof(claimed), result }));
    await expect(
      store.recordRunResult({ ...proof(claimed), result: { ...result, runId: '7,3,1,9,run' } }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await expectStored(await store.ack(proof(claimed)))).toMatchObject({ runId, status: 'acked' });
  });
});
