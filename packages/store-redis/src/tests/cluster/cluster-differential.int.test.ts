import { createManualClock, describeStoreDifferential } from '@awaken/store-conformance';
import { createMemoryStores } from '@awaken/store-memory';
import { afterAll, inject } from 'vitest';
import { createRedisStores } from '../../create-redis-stores';
import type { ShardedRedisMailboxStore } from '../../sharded-redis-mailbox-store';
import { clusterClient, deleteClusterKeys } from '../../../test-support/redis-cluster-harness';
import { uniquePrefix } from '../../../test-support/redis-harness';

// The memory-vs-store differential (src/tests/conformance/store-differential.int.test.ts) with the
// Redis stores on the test run's cluster: the thread/run store, event log and inbox on one slot of
// the prefix, the mailbox sharded over the three masters. A shorter budget than the single-node run
// (AWAKEN_CLUSTER_DIFFERENTIAL_MS), to keep the suite's time.
const client = clusterClient(inject('redisClusterNodes'));
afterAll(async () => {
  await client.quit();
});

describeStoreDifferential({
  name: 'memory vs redis cluster',
  budgetMs: Number(process.env.AWAKEN_CLUSTER_DIFFERENTIAL_MS ?? 10_000),
  // a sharded mailbox call may read before it writes: calls of one tick take effect in any order
  callsInCallOrder: false,
  ...(process.env.AWAKEN_DIFFERENTIAL_SEED ? { seed: Number(process.env.AWAKEN_DIFFERENTIAL_SEED) } : {}),
  async createPair(start) {
    const clock = createManualClock(start);
    const memory = createMemoryStores({ now: clock.now, jointCheckpoints: true });
    const redis = createRedisStores({ redis: client, prefix: uniquePrefix('diff'), testClock: true });
    const mailbox = redis.mailbox as ShardedRedisMailboxStore;
    const prefixes = [redis.prefix, ...(await mailbox.shards()).map((shard) => shard.prefix)];
    const setClocks = (ms: number) =>
      Promise.all(prefixes.map((prefix) => client.set(`${prefix}clock`, String(ms))));
    await setClocks(start);
    return {
      reference: {
        mailbox: memory.mailbox,
        threadRuns: memory.threadRuns,
        eventLog: memory.eventLog,
        inbox: memory.inbox,
      },
      subject: {
        mailbox: redis.mailbox,
        threadRuns: redis.threadRuns,
        eventLog: redis.eventLog,
        inbox: redis.inbox,
      },
      async setClock(ms) {
        clock.advance(ms - clock.now());
        await setClocks(ms);
      },
      async destroy() {
        await redis.close();
        for (const prefix of prefixes) await deleteClusterKeys(client, prefix);
        await deleteClusterKeys(client, mailbox.prefix);
      },
    };
  },
});
