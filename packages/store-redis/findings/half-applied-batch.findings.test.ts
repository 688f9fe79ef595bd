import type { RunDispatch } from '@awaken/contract';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { RedisMailboxStore } from '../src/redis-mailbox-store';
import { deleteKeys, uniquePrefix } from '../src/testing/redis-harness';

// FINDING (open, low): a batched ack call whose script raises a Lua runtime error midway (here: a
// dispatch record missing its lease field, as a record written by an earlier version or edited by
// hand would be) keeps the writes of the acks before it (Redis does not roll a script back) but
// rejects every call of the batch with store_failure (retryable): the first ack is applied yet
// answered as failed, and its retry then answers stale_claim; the third is never tried.
// Run: pnpm exec vitest run --config packages/store-redis/findings/vitest.config.ts

const proof = (dispatch: RunDispatch) => ({
  dispatchId: dispatch.dispatchId,
  claimToken: dispatch.claimToken ?? '',
});

describe('a batched ack call that fails midway', () => {
  let store: RedisMailboxStore;

  beforeEach(() => {
    store = new RedisMailboxStore({ redis: inject('redisUrl'), prefix: uniquePrefix('midway') });
  });
  afterEach(async () => {
    await deleteKeys(store.redis, store.prefix);
    await store.close();
  });

  it('answers each ack by what happened to it', async () => {
    for (const thread of ['t1', 't2', 't3'])
      await store.enqueue({ threadId: thread, runId: thread, dispatchId: thread });
    const claimed = await store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
    await store.redis.hdel(`${store.prefix}d:t2`, 'l'); // a broken record
    const byId = new Map(claimed.map((dispatch) => [dispatch.dispatchId, dispatch]));
    const results = await Promise.allSettled(
      ['t1', 't2', 't3'].map((id) => store.ack(proof(byId.get(id) as RunDispatch))),
    );
    const answers = results.map((result) =>
      result.status === 'fulfilled' ? result.value.status : result.reason.code,
    );
    expect(answers).toEqual(['acked', 'store_failure', 'acked']);
  });
});
