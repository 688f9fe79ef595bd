import {
  describeMailboxStoreConformance,
  describeRunControlInboxConformance,
  describeRunEventLogConformance,
  describeThreadRunStoreConformance,
} from '@awaken/store-conformance';
import { inject } from 'vitest';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { RedisRunControlInbox } from '../../redis-run-control-inbox';
import { RedisRunEventLog } from '../../redis-run-event-log';
import { RedisThreadRunStore } from '../../redis-thread-run-store';
import { redisClusterHarnessParts } from '../../../test-support/redis-cluster-harness';
import { advanceClock, freezeClock } from '../../../test-support/redis-harness';

// The same conformance suites as on the single redis-server (src/redis-*.int.test.ts), on the test
// run's Redis Cluster (three masters): the stores given an ioredis Cluster.
const nodes = inject('redisClusterNodes');

const mailbox = redisClusterHarnessParts(
  nodes,
  (options) => new RedisMailboxStore({ ...options, testClock: true }),
);
describeMailboxStoreConformance({
  name: 'redis cluster',
  ...mailbox,
  async create() {
    const store = await mailbox.create();
    await freezeClock(store);
    return store;
  },
  clock: { advance: (store, ms) => advanceClock(store as RedisMailboxStore, ms) },
});

describeThreadRunStoreConformance({
  name: 'redis cluster',
  ...redisClusterHarnessParts(nodes, (options) => new RedisThreadRunStore(options)),
});

describeRunEventLogConformance({
  name: 'redis cluster',
  ...redisClusterHarnessParts(nodes, (options) => new RedisRunEventLog(options)),
});

describeRunControlInboxConformance({
  name: 'redis cluster',
  ...redisClusterHarnessParts(nodes, (options) => new RedisRunControlInbox(options)),
});
