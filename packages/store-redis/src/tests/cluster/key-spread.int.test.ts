import type { RunRecord } from '@awaken/contract';
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
  it("spreads 1,000 threads' keys (thread, messages, runs, event logs, inboxes, dispatches) over every master, each thread's on one node", async () => {
    const prefix = uniquePrefix('spread');
    const stores = createRedisStores({ redis: client, prefix });
    const mailbox = stores.mailbox as ShardedRedisMailboxStore;
    try {
      const threads = Array.from({ length: 1000 }, (_, index) => `thread-${index}`);
      await Promise.all(
        threads.map(async (threadId) => {
          const runId = `run-${threadId}`;
          await stores.threadRuns.createThread({ id: threadId });
          await stores.threadRuns.appendMessages(threadId, {
            expectedLength: 0,
            messages: [{ visibility: 'external', message: { role: 'user', content: 'hi' } }],
          });
          await stores.threadRuns.createRun(runRecord(runId, threadId));
          await stores.eventLog.append(runId, [{ type: 'step_start', step: 1, runId, seq: 1, at: 1 }]);
          await stores.inbox.put(runId, {
            id: `c-${threadId}`,
            kind: 'cancel',
            at: 1,
          });
          await mailbox.enqueue({ threadId, runId, dedupeKey: 'once', dispatchId: `d-${threadId}` });
        }),
      );
      const claimed = await mailbox.claim({ workerId: 'w', limit: 300, leaseMs: 60_000 });
      expect(claimed).toHaveLength(300);

      const perMaster = await keysPerMaster(prefix);
      expect(perMaster).toHaveLength(3);
      const nodeOf = new Map<string, number>();
      perMaster.forEach((keys, node) => {
        for (const key of keys) nodeOf.set(key, node);
      });
      // every master holds about a third of the threads, runs, event logs and dispatches (one shard each)
      for (const kind of ['th', 'run', 'ev', 'ctq', 'd']) {
        const counts = perMaster.map((keys) => keys.filter((key) => key.includes(`}:${kind}:`)).length);
        for (const count of counts) expect(count, kind).toBeGreaterThan(250);
        expect(counts.reduce((a, b) => a + b)).toBe(1000);
      }

      // each thread's keys — thread, messages, runs, event log, inbox, dispatches — share one slot, on
      // one master (the run locator's entry `rt:<run>` is an index on the run id's own shard)
      const byThread = new Map<string, string[]>();
      for (const key of nodeOf.keys()) {
        const match = /}:[a-z]+:(?:run-|c-|d-)?(thread-\d+)$/.exec(key);
        if (!match || key.includes('}:rt:')) continue;
        const list = byThread.get(match[1] as string) ?? [];
        list.push(key);
        byThread.set(match[1] as string, list);
      }
      expect(byThread.size).toBe(1000);
      for (const threadId of threads) {
        const keys = byThread.get(threadId) ?? [];
        // th, thm, thr, run, ev, evm, ctq, cte, ctk, ta, tdd, d — at least the thread's own and its run's
        expect(keys.length).toBeGreaterThanOrEqual(9);
        expect(keys.some((key) => key.includes('}:d:'))).toBe(true);
        expect(new Set(keys.map(keySlot)).size).toBe(1);
        expect(new Set(keys.map((key) => nodeOf.get(key))).size).toBe(1);
      }
      // the cluster agrees with the slot this package computes
      const sample = [...nodeOf.keys()].slice(0, 20);
      for (const key of sample) expect(await client.cluster('KEYSLOT', key)).toBe(keySlot(key));

      // the tenant-wide indexes are per shard: every master holds its shard's thread index
      const indexes = perMaster.map((keys) => keys.filter((key) => key.endsWith('}:threads')).length);
      expect(indexes).toEqual([1, 1, 1]);
      const [shard0] = await mailbox.shards();
      const ready = `${shard0?.prefix}ready`;
      const owner = await masterFor(client as never, ready);
      expect(await owner.cluster('COUNTKEYSINSLOT', keySlot(ready))).toBeGreaterThan(1000);
    } finally {
      await stores.close();
      await deleteClusterKeys(client, prefix);
    }
  });
});

function runRecord(runId: string, threadId: string): RunRecord {
  return {
    runId,
    threadId,
    agentId: 'agent',
    origin: 'user',
    status: 'created',
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    state: {},
    version: 0,
    createdAt: 1,
    updatedAt: 1,
  };
}
