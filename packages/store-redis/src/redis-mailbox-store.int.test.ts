import { describeMailboxStoreConformance } from '@awaken/store-conformance';
import { inject } from 'vitest';
import { RedisMailboxStore } from './redis-mailbox-store';
import { advanceClock, freezeClock, redisHarnessParts } from '../test-support/redis-harness';

// The test clock freezes the store clock inside Redis, so lease boundaries are tested to the
// millisecond; the multi-process and skew tests (mailbox-processes) run on real Redis TIME.
const parts = redisHarnessParts(
  inject('redisUrl'),
  (options) => new RedisMailboxStore({ ...options, testClock: true }),
);

describeMailboxStoreConformance({
  name: 'redis',
  ...parts,
  async create() {
    const store = await parts.create();
    await freezeClock(store);
    return store;
  },
  clock: { advance: (store, ms) => advanceClock(store as RedisMailboxStore, ms) },
});
