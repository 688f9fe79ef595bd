import type { RunDispatch } from '@awaken/contract';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { RedisMailboxStore } from '../../../redis-mailbox-store';
import { deleteKeys, uniquePrefix } from '../../../../test-support/redis-harness';

// The calls of one tick share one batched script call (enqueue, ack). An item that fails in the
// middle of it with a Lua runtime error or a failed Redis command (here: a record damaged by hand,
// as an older version or an operator could leave it) must not abort the script: Redis would keep
// the writes of the items before it yet every call of the batch would be rejected. Each call is
// answered by what happened to its own item (per_item in the mailbox prelude).

const proof = (dispatch: RunDispatch) => ({
  dispatchId: dispatch.dispatchId,
  claimToken: dispatch.claimToken ?? '',
});

const answers = async (calls: Promise<RunDispatch>[]) =>
  (await Promise.allSettled(calls)).map((result) =>
    result.status === 'fulfilled' ? result.value.status : (result.reason as { code: string }).code,
  );

describe('a batched script call in which one item fails', () => {
  let store: RedisMailboxStore;

  beforeEach(() => {
    store = new RedisMailboxStore({ redis: inject('redisUrl'), prefix: uniquePrefix('per-item') });
  });
  afterEach(async () => {
    await deleteKeys(store.redis, store.prefix);
    await store.close();
  });

  it('answers each ack by what happened to it', async () => {
    for (const thread of ['t1', 't2', 't3'])
      await store.enqueue({ threadId: thread, runId: thread, dispatchId: thread });
    const claimed = await store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
    await store.redis.hdel(`${store.prefix}d:t2`, 'l'); // a broken record: no lease deadline
    const byId = new Map(claimed.map((dispatch) => [dispatch.dispatchId, dispatch]));
    const acks = ['t1', 't2', 't3'].map((id) => store.ack(proof(byId.get(id) as RunDispatch)));
    expect(await answers(acks)).toEqual(['acked', 'store_failure', 'acked']);
    const failure = await acks[1]?.catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'store_failure', retryable: true });
    expect((await store.loadDispatch('t1'))?.status).toBe('acked');
    expect((await store.loadDispatch('t3'))?.status).toBe('acked');
    // The broken one was not written: still claimed, still holding its thread.
    expect(await store.redis.hget(`${store.prefix}d:t2`, 's')).toBe('claimed');
    expect(await store.redis.hget(`${store.prefix}tstate`, 'c:t2')).toBe('t2');
  });

  it('answers each enqueue by what happened to it', async () => {
    // A key of the wrong type where the enqueue of thread t2 reads its dedupe keys: WRONGTYPE.
    await store.redis.set(`${store.prefix}tdd:t2`, 'not a hash');
    const enqueues = ['t1', 't2', 't3'].map((thread) =>
      store.enqueue({ threadId: thread, runId: thread, dispatchId: thread, dedupeKey: 'k' }),
    );
    expect(await answers(enqueues)).toEqual(['queued', 'store_failure', 'queued']);
    expect(await store.loadDispatch('t2')).toBeNull();
    const claimed = await store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
    expect(claimed.map((dispatch) => dispatch.dispatchId)).toEqual(['t1', 't3']);
  });
});
