import { type RunScopedStores, describeRunExpiryConformance } from '@awaken/store-conformance';
import { inject } from 'vitest';
import { type RedisStores, createRedisStores } from './create-redis-stores';
import { deleteKeys, uniquePrefix } from './testing/redis-harness';

const owners = new WeakMap<RunScopedStores, RedisStores>();

describeRunExpiryConformance({
  name: 'redis (createRedisStores)',
  async create() {
    const stores = createRedisStores({ redis: inject('redisUrl'), prefix: uniquePrefix('expiry') });
    const scoped = { eventLog: stores.eventLog, inbox: stores.decisions };
    owners.set(scoped, stores);
    return scoped;
  },
  async destroy(scoped) {
    const stores = owners.get(scoped);
    if (stores === undefined) return;
    await deleteKeys(stores.redis, stores.prefix);
    await stores.close();
  },
});
