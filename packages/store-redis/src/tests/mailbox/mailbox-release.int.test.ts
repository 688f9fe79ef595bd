import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

// The end of a claim readies only the thread's next due dispatch, whatever its backlog: before,
// every queued dispatch of the thread went back into `ready` on each ack (O(backlog) per ack,
// O(backlog²) to drain a thread).
describe('releasing a thread with a backlog', () => {
  let store: RedisMailboxStore;

  beforeEach(() => {
    store = new RedisMailboxStore({ redis: inject('redisUrl'), prefix: uniquePrefix('release') });
  });
  afterEach(async () => {
    await deleteKeys(store.redis, store.prefix);
    await store.close();
  });

  const ready = () => store.redis.zrange(`${store.prefix}ready`, 0, -1);

  async function claimOne() {
    const [dispatch] = await store.claim({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
    if (!dispatch) throw new Error('nothing claimed');
    return { dispatch, proof: { dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' } };
  }

  it('puts only the next dispatch back into ready, then drains the backlog in order', async () => {
    await store.enqueue({ threadId: 't1', runId: 'r0' });
    const first = await claimOne();
    const backlog = [];
    for (let index = 1; index <= 300; index += 1) {
      backlog.push(await store.enqueue({ threadId: 't1', runId: `r${index}` }));
    }
    expect(await ready()).toEqual([]);
    await store.ack(first.proof);
    expect(await ready()).toEqual([backlog[0]?.dispatchId]);
    for (const queued of backlog) {
      const next = await claimOne();
      expect(next.dispatch.dispatchId).toBe(queued.dispatchId);
      await store.ack(next.proof);
      expect((await ready()).length).toBeLessThanOrEqual(1);
    }
  });

  it('readies the dispatch after the next one when the next one is cancelled', async () => {
    await store.enqueue({ threadId: 't1', runId: 'r0' });
    const first = await claimOne();
    const next = await store.enqueue({ threadId: 't1', runId: 'r1' });
    const after = await store.enqueue({ threadId: 't1', runId: 'r2' });
    await store.ack(first.proof);
    await store.cancel(next.dispatchId);
    expect(await ready()).toEqual([after.dispatchId]);
    expect((await claimOne()).dispatch.dispatchId).toBe(after.dispatchId);
  });

  it('readies a higher-priority dispatch enqueued later first, and a delayed one once it is due', async () => {
    const first = await store.enqueue({ threadId: 't1', runId: 'r0' });
    const claimed = await claimOne();
    expect(claimed.dispatch.dispatchId).toBe(first.dispatchId);
    const now = await store.now();
    const delayed = await store.enqueue({ threadId: 't1', runId: 'r1', priority: 0, availableAt: now + 150 });
    const low = await store.enqueue({ threadId: 't1', runId: 'r2' });
    const high = await store.enqueue({ threadId: 't1', runId: 'r3', priority: 10 });
    await store.ack(claimed.proof);
    const order = [];
    for (let index = 0; index < 2; index += 1) {
      const next = await claimOne();
      order.push(next.dispatch.dispatchId);
      await store.ack(next.proof);
    }
    expect(order).toEqual([high.dispatchId, low.dispatchId]);
    expect(await store.claim({ workerId: 'w1', limit: 1, leaseMs: 60_000 })).toEqual([]);
    await vi.waitFor(async () => expect(await store.now()).toBeGreaterThanOrEqual(now + 150));
    expect((await claimOne()).dispatch.dispatchId).toBe(delayed.dispatchId);
  });
});
