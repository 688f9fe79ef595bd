import { type RunDispatch, runDispatchSchema } from '@awaken/contract';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { forkWorker } from '../../../test-support/fork-worker';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

describe('RedisMailboxStore across processes', () => {
  const url = inject('redisUrl');
  let store: RedisMailboxStore | undefined;

  afterEach(async () => {
    if (store) {
      await deleteKeys(store.redis, store.prefix);
      await store.close();
    }
  });

  it('has 4 processes claim 2,000 dispatches: each claimed and acked exactly once, none lost', async () => {
    store = new RedisMailboxStore({ redis: url, prefix: uniquePrefix('procs') });
    const total = 2_000;
    const enqueued: RunDispatch[] = [];
    for (let batch = 0; batch < total / 100; batch += 1) {
      enqueued.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, index) =>
            store!.enqueue({
              threadId: `thread-${(batch * 100 + index) % 400}`,
              runId: `run-${batch * 100 + index}`,
              priority: index % 3,
            }),
          ),
        )),
      );
    }
    const results = await Promise.all(
      [1, 2, 3, 4].map((worker) =>
        forkWorker<string[]>(['claim', url, store!.prefix, `worker-${worker}`, String(total), '4']),
      ),
    );
    const claimed = results.flat();
    expect(claimed).toHaveLength(total);
    expect(new Set(claimed).size).toBe(total);
    expect(new Set(claimed)).toEqual(new Set(enqueued.map((dispatch) => dispatch.dispatchId)));
    expect(results.every((ids) => ids.length > 0)).toBe(true);
    const stored = await Promise.all(enqueued.map((dispatch) => store!.loadDispatch(dispatch.dispatchId)));
    for (const dispatch of stored) {
      expect(runDispatchSchema.parse(dispatch)).toMatchObject({ status: 'acked', attemptCount: 0 });
    }
  }, 120_000);

  it('computes leaseUntil from Redis TIME, whatever the clock of the claiming process says', async () => {
    store = new RedisMailboxStore({ redis: url, prefix: uniquePrefix('skew') });
    const skews = [3_600_000, -3_600_000];
    for (const skewMs of skews) {
      const dispatch = await store.enqueue({ threadId: `thread-${skewMs}`, runId: 'run-1' });
      const before = await store.now();
      const { claimed, callerNow } = await forkWorker<{ claimed: RunDispatch; callerNow: number }>([
        'skew',
        url,
        store.prefix,
        dispatch.dispatchId,
        String(skewMs),
      ]);
      const after = await store.now();
      expect(Math.abs(callerNow - after - skewMs)).toBeLessThan(60_000);
      expect(claimed.leaseUntil).toBeGreaterThanOrEqual(before + 60_000);
      expect(claimed.leaseUntil).toBeLessThanOrEqual(after + 60_000);
      expect(await store.reclaimExpiredLeases()).toEqual([]);
    }
  }, 60_000);
});
