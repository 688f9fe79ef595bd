import type { RunRecord } from '@awaken/contract';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisStores } from '../../create-redis-stores';
import { threadShard } from '../../internal/cluster/cluster-topology';
import { clusterClient, deleteClusterKeys } from '../../../test-support/redis-cluster-harness';
import { uniquePrefix } from '../../../test-support/redis-harness';

const client = clusterClient(inject('redisClusterNodes'));
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await deleteClusterKeys(client, prefix);
  await client.quit();
});

const runRecord = (runId: string, threadId: string): RunRecord => ({
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
});

describe('the run locator on a Redis Cluster', () => {
  it("finds a run whose id was used again on another shard's thread after another process deleted its first thread", async () => {
    const prefix = uniquePrefix('locator');
    prefixes.push(prefix);
    // two processes: each its own stores (and its own memory of runs' threads)
    const a = createRedisStores({ redis: client, prefix, mailboxShards: 3 });
    const b = createRedisStores({ redis: client, prefix, mailboxShards: 3 });
    const first = 'thread-first';
    const second = Array.from({ length: 50 }, (_, index) => `thread-${index}`).find(
      (id) => threadShard(id, 3) !== threadShard(first, 3),
    ) as string;
    await a.threadRuns.createThread({ id: first });
    await a.threadRuns.createRun(runRecord('run-1', first));
    // b reads the run once: it now remembers run-1 → thread-first
    expect((await b.threadRuns.getRun('run-1'))?.threadId).toBe(first);

    // a deletes the thread and uses the id again on a thread of another shard
    expect(await a.threadRuns.deleteThread(first)).toBe(true);
    await a.threadRuns.createThread({ id: second });
    await a.threadRuns.createRun(runRecord('run-1', second));

    expect((await b.threadRuns.getRun('run-1'))?.threadId).toBe(second);
    const lease = await b.threadRuns.acquireRun('run-1', { owner: 'b', leaseMs: 10_000 });
    expect(lease.fence).toBeGreaterThanOrEqual(1);
    // an id nobody uses is still nobody's
    expect(await b.threadRuns.getRun('run-unknown')).toBeNull();
  });
});
