import { Redis as Redis6 } from 'ioredis-6';
import { describe, expect, inject, it, vi } from 'vitest';
import { createRedisStores } from '../../create-redis-stores';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { RedisRunControlInbox } from '../../redis-run-control-inbox';
import { RedisRunEventLog } from '../../redis-run-event-log';
import { RedisThreadRunStore } from '../../redis-thread-run-store';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

// The store's own ioredis is 5; the application's client here comes from another copy (ioredis 6),
// so `instanceof` would not recognise it. The test Redis listens on a random port with no default
// fallback: a store that opened its own connection would reach nothing.
describe("a user's ioredis client from another copy of ioredis", () => {
  it('is used as is by createRedisStores, and stays open after close()', async () => {
    const client = new Redis6(inject('redisUrl'));
    const prefix = uniquePrefix('user-client');
    const stores = createRedisStores({ redis: client as never, prefix });
    try {
      expect(stores.redis).toBe(client);
      await stores.threadRuns.createThread({ id: 't1', metadata: { owner: 'ada' } });
      expect(await stores.threadRuns.getThread('t1')).toMatchObject({ id: 't1', metadata: { owner: 'ada' } });
    } finally {
      await stores.close();
    }
    expect(client.status).toBe('ready');
    await deleteKeys(client as never, prefix);
    await client.quit();
  });

  it('is used as is by each store on its own', async () => {
    const client = new Redis6(inject('redisUrl'));
    await client.ping();
    const options = { redis: client as never, prefix: uniquePrefix('user-client') };
    const stores = [
      new RedisMailboxStore(options),
      new RedisThreadRunStore(options),
      new RedisRunEventLog(options),
      new RedisRunControlInbox(options),
    ];
    for (const store of stores) expect(store.redis).toBe(client);
    await Promise.all(stores.map((store) => store.close()));
    expect(client.status).toBe('ready');
    await client.quit();
  });

  it('is not mistaken for options: a plain options object still opens a connection the store owns', async () => {
    const url = new URL(inject('redisUrl'));
    const store = new RedisThreadRunStore({
      redis: { host: url.hostname, port: Number(url.port) },
      prefix: uniquePrefix('options'),
    });
    await store.createThread({ id: 't1' });
    expect(store.redis.status).toBe('ready');
    await deleteKeys(store.redis, store.prefix);
    await store.close();
    await vi.waitFor(() => expect(store.redis.status).toBe('end'));
  });
});
