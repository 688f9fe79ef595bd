import { describeMailboxStoreConformance } from '@awaken/store-conformance';
import { inject } from 'vitest';
import { ShardedRedisMailboxStore } from '../../sharded-redis-mailbox-store';
import { deleteClusterKeys, redisClusterHarnessParts } from '../../../test-support/redis-cluster-harness';

// The mailbox conformance suite on the test run's cluster, sharded over its three masters (one
// shard per master): every guarantee of the single-node mailbox, with threads spread over shards.
const nodes = inject('redisClusterNodes');
const parts = redisClusterHarnessParts(
  nodes,
  (options) => new ShardedRedisMailboxStore({ ...options, testClock: true }),
);

/** Sets every shard's frozen clock (each shard's scripts read their own `<shard prefix>clock`). */
async function setClocks(store: ShardedRedisMailboxStore, ms: (shardNow: number | null) => number) {
  for (const shard of await store.shards()) {
    const key = `${shard.prefix}clock`;
    const current = await shard.redis.get(key);
    await shard.redis.set(key, String(ms(current === null ? null : Number(current))));
  }
}

describeMailboxStoreConformance({
  name: 'redis cluster, sharded mailbox',
  ...parts,
  async create() {
    const store = await parts.create();
    const [seconds, micros] = await store.redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    await setClocks(store, () => now);
    return store;
  },
  async destroy(store) {
    for (const shard of await (store as ShardedRedisMailboxStore).shards())
      await deleteClusterKeys(shard.redis as never, shard.prefix);
    await parts.destroy(store as ShardedRedisMailboxStore);
  },
  clock: {
    advance: (store, ms) =>
      setClocks(store as ShardedRedisMailboxStore, (current) => (current ?? 0) + Math.round(ms)),
  },
});
