import { afterEach, describe, expect, inject, it } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

describe('recorded replies of mutating scripts', () => {
  const stores: RedisMailboxStore[] = [];
  const open = (requestTtlMs?: number) => {
    const store = new RedisMailboxStore({
      redis: inject('redisUrl'),
      prefix: uniquePrefix('rq'),
      requestTtlMs,
    });
    stores.push(store);
    return store;
  };
  const records = (store: RedisMailboxStore) => store.redis.keys(`${store.prefix}rq:*`);

  afterEach(async () => {
    for (const store of stores.splice(0)) {
      await deleteKeys(store.redis, store.prefix);
      await store.close();
    }
  });

  it('keeps each reply for requestTtlMs under its request id', async () => {
    const store = open(30_000);
    await store.enqueue({ threadId: 't1', runId: 'r1' });
    await store.claim({ workerId: 'w1', limit: 1, leaseMs: 1_000 });
    const keys = await records(store);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const ttl = await store.redis.pttl(key);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
    }
  });

  it('records nothing with requestTtlMs 0, and rejects a negative or fractional one', async () => {
    const store = open(0);
    await store.enqueue({ threadId: 't1', runId: 'r1' });
    expect(await records(store)).toEqual([]);
    for (const requestTtlMs of [-1, 1.5]) {
      expect(() => open(requestTtlMs)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    }
  });
});
