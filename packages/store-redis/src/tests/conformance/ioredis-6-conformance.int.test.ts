import {
  describeMailboxStoreConformance,
  describeRunControlInboxConformance,
  describeRunEventLogConformance,
  describeThreadRunStoreConformance,
} from '@awaken/store-conformance';
import type { Redis } from 'ioredis';
import { Redis as Redis6 } from 'ioredis-6';
import { inject } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { RedisRunControlInbox } from '../../redis-run-control-inbox';
import { RedisRunEventLog } from '../../redis-run-event-log';
import { RedisThreadRunStore } from '../../redis-thread-run-store';
import { advanceClock, deleteKeys, freezeClock, uniquePrefix } from '../../../test-support/redis-harness';

interface ClientStore {
  readonly redis: Redis;
  readonly prefix: string;
  close(): Promise<void>;
}

/**
 * Every conformance suite again, each store given an application-owned ioredis 6 client (the
 * package's own ioredis is 5): the peer range `^5 || ^6` is tested, not just declared.
 */
function ioredis6Harness<T extends ClientStore>(open: (options: { redis: never; prefix: string }) => T) {
  const url = inject('redisUrl');
  const connect = (prefix: string) => open({ redis: new Redis6(url) as never, prefix });
  const release = async (store: T) => {
    await store.close();
    await store.redis.quit();
  };
  return {
    name: 'redis with an ioredis 6 client',
    create: async () => connect(uniquePrefix('ioredis6')),
    async destroy(store: T) {
      await deleteKeys(store.redis, store.prefix);
      await release(store);
    },
    peers: { connect: async (store: T) => connect(store.prefix), disconnect: release },
  };
}

describeThreadRunStoreConformance(ioredis6Harness((options) => new RedisThreadRunStore(options)));
describeRunEventLogConformance(ioredis6Harness((options) => new RedisRunEventLog(options)));
describeRunControlInboxConformance(ioredis6Harness((options) => new RedisRunControlInbox(options)));

const mailbox = ioredis6Harness((options) => new RedisMailboxStore({ ...options, testClock: true }));
describeMailboxStoreConformance({
  ...mailbox,
  async create() {
    const store = await mailbox.create();
    await freezeClock(store);
    return store;
  },
  clock: { advance: (store, ms) => advanceClock(store as RedisMailboxStore, ms) },
});
