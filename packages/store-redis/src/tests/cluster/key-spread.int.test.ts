import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisStores } from '../../create-redis-stores';
import { masterFor } from '../../internal/cluster/cluster-topology';
import { keySlot } from '../../internal/cluster/key-slot';
import type { ShardedRedisMailboxStore } from '../../sharded-redis-mailbox-store';
import { clusterClient, deleteClusterKeys, masters } from '../../../test-support/redis-cluster-harness';
import { uniquePrefix } from '../../../test-support/redis-harness';

const client = clusterClient(inject('redisClusterNodes'));
afterAll(async () => {
  await client.quit();
});

/** The keys under `prefix` on each master (SCAN: tests only). */
async function keysPerMaster(prefix: string): Promise<string[][]> {
  const out: string[][] = [];
  for (const node of await masters(client)) {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    out.push(keys);
  }
  return out;
}

describe('keys on a Redis Cluster', () => {
  it("spreads 1,000 threads' mailbox keys over every master, each thread's on one node, and keeps a prefix's thread/run keys on one slot", async () => {
    const prefix = uniquePrefix('spread');
    const stores = createRedisStores({ redis: client, prefix });
    const mailbox = stores.mailbox as ShardedRedisMailboxStore;
    try {
      const threads = Array.from({ length: 1000 }, (_, index) => `thread-${index}`);
      await Promise.all(
        threads.map((threadId) => mailbox.enqueue({ threadId, runId: `run-${threadId}`, dedupeKey: 'once' })),
      );
      const claimed = await mailbox.claim({ workerId: 'w', limit: 300, leaseMs: 60_000 });
      expect(claimed).toHaveLength(300);
      await stores.threadRuns.createThread({ id: 'thread-0' });

      const perMaster = await keysPerMaster(prefix);
      expect(perMaster).toHaveLength(3);
      const dispatchKeys = perMaster.map((keys) => keys.filter((key) => /}:d:/.test(key)).length);
      // every master holds about a third of the dispatches (one shard each)
      for (const count of dispatchKeys) expect(count).toBeGreaterThan(250);
      expect(dispatchKeys.reduce((a, b) => a + b)).toBe(1000);

      // each thread's mailbox keys (dispatch, queue, list, dedupe) share one slot, on one master
      const nodeOf = new Map<string, number>();
      perMaster.forEach((keys, node) => {
        for (const key of keys) nodeOf.set(key, node);
      });
      for (const threadId of threads) {
        const keys = [...nodeOf.keys()].filter(
          (key) => key.endsWith(`:${threadId}`) && !key.startsWith(stores.prefix),
        );
        expect(keys.length).toBeGreaterThanOrEqual(2); // ta: and tdd: at least
        expect(new Set(keys.map(keySlot)).size).toBe(1);
        expect(new Set(keys.map((key) => nodeOf.get(key))).size).toBe(1);
      }
      // the cluster agrees with the slot this package computes
      const sample = [...nodeOf.keys()].slice(0, 20);
      for (const key of sample) expect(await client.cluster('KEYSLOT', key)).toBe(keySlot(key));

      // the thread/run store's keys of the prefix: one slot (see docs/guides/redis.md)
      const threadKeys = [...nodeOf.keys()].filter((key) => key.startsWith(stores.prefix));
      expect(threadKeys.length).toBeGreaterThan(0);
      expect(new Set(threadKeys.map(keySlot)).size).toBe(1);
      const [shard0] = await mailbox.shards();
      const ready = `${shard0?.prefix}ready`;
      const owner = await masterFor(client as never, ready);
      expect(await owner.cluster('COUNTKEYSINSLOT', keySlot(ready))).toBeGreaterThan(250);
    } finally {
      await stores.close();
      await deleteClusterKeys(client, prefix);
    }
  });
});
