import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { advanceClock, deleteKeys, freezeClock, uniquePrefix } from '../../../test-support/redis-harness';

// A backlog queued on a thread with no claim holds one entry in `ready` (its next dispatch), not
// one per dispatch: otherwise the claim after the thread's first one pops and drops the whole
// backlog in one script call (measured: ~50 ms of Redis for 10,000, ~0.4 s for 50,000).
describe('a backlog queued on a free thread', () => {
  let store: RedisMailboxStore;

  beforeEach(() => {
    store = new RedisMailboxStore({
      redis: inject('redisUrl'),
      prefix: uniquePrefix('backlog'),
      testClock: true,
    });
  });
  afterEach(async () => {
    await deleteKeys(store.redis, store.prefix);
    await store.close();
  });

  const ready = () => store.redis.zrange(`${store.prefix}ready`, 0, -1);

  it('puts only its next dispatch into ready, and a later more urgent one ahead of it', async () => {
    const backlog = await Promise.all(
      Array.from({ length: 100 }, () => store.enqueue({ threadId: 't', runId: 'r' })),
    );
    expect(await ready()).toEqual([backlog[0]?.dispatchId]);
    const urgent = await store.enqueue({ threadId: 't', runId: 'r', priority: 0 });
    expect(await ready()).toEqual([urgent.dispatchId, backlog[0]?.dispatchId]);
    const order: string[] = [];
    for (;;) {
      const [next] = await store.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
      if (!next) break;
      order.push(next.dispatchId);
      await store.ack({ dispatchId: next.dispatchId, claimToken: next.claimToken ?? '' });
    }
    expect(order).toEqual([urgent.dispatchId, ...backlog.map((dispatch) => dispatch.dispatchId)]);
  });

  it('puts only its next dispatch into ready when delayed dispatches fall due together', async () => {
    await freezeClock(store);
    const now = await store.now();
    // Ids in the reverse of enqueue order: equal availableAt, so they fall due in id order, each
    // ahead in the thread queue of the ones fallen due before it.
    const delayed = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.enqueue({
          threadId: 't',
          runId: 'r',
          dispatchId: `d${String(99 - index).padStart(2, '0')}`,
          availableAt: now + 1_000,
        }),
      ),
    );
    await store.enqueue({ threadId: 'other', runId: 'r', dispatchId: 'other' });
    await advanceClock(store, 1_000);
    const [claimed] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
    expect(claimed?.dispatchId).toBe(delayed[0]?.dispatchId);
    expect(await ready()).toEqual(['other']);
  });
});
