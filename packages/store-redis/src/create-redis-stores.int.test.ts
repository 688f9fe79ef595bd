import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createRedisStores } from './create-redis-stores';

describe('createRedisStores().close()', () => {
  it('ends a pending waitForWork and closes the mailbox’s blocking connection', async () => {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix: `close:${randomUUID()}:` });
    const waiting = stores.mailbox.waitForWork({ timeoutMs: 60_000 });
    // the blocking read is issued on its own connection once the marker list is checked
    await stores.redis.ping();
    const started = Date.now();
    await stores.close();
    expect(await waiting).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
