import {
  type JointStores,
  describeCheckpointWithEventsConformance,
  describeMailboxStoreConformance,
  describeRunControlInboxConformance,
  describeRunEventLogConformance,
  describeThreadRunStoreConformance,
} from '@awaken/store-conformance';
import { type RunRecord, jointAcquirer, jointCheckpointWriter } from '@awaken/contract';
import { type RedisClusterHandle, startRedisCluster } from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStores } from '../../create-redis-stores';
import { mailboxShardPrefix, threadShard } from '../../internal/cluster/cluster-topology';
import { registeredScripts } from '../../internal/lua/script-loading';
import { MUTATING_SCRIPT_SHAS } from '../../internal/lua/idempotent-script';
import { RedisMailboxStore } from '../../redis-mailbox-store';
import { ShardedRedisRunControlInbox } from '../../sharded-redis-run-control-inbox';
import { ShardedRedisRunEventLog } from '../../sharded-redis-run-event-log';
import { ShardedRedisThreadRunStore } from '../../sharded-redis-thread-run-store';
import {
  clusterClient,
  deleteClusterKeys,
  redisClusterHarnessParts,
} from '../../../test-support/redis-cluster-harness';
import { advanceClock, freezeClock, uniquePrefix } from '../../../test-support/redis-harness';
import { type ScriptKeyReport, monitorScriptKeys } from '../../../test-support/script-key-monitor';

// The same conformance suites as on the single redis-server (src/redis-*.int.test.ts), on a Redis
// Cluster of three masters: the stores given an ioredis Cluster. The cluster is this file's own
// (started once below), not the test run's shared one: MONITOR (below) sees every command of every
// client, so on the shared cluster other test files running at the same time would feed it their
// commands (and scripts it cannot name) and break its connection. Filled in by beforeAll, read by
// the harness when a test opens a store.
const nodes: string[] = [];
let cluster: RedisClusterHandle | undefined;

// Every key a script touches is in the slot of its KEYS[1]: the scripts build most of their keys
// inside Lua (from the tagged prefix and ids read from indexes, e.g. each dispatch a claim pops), so
// KEYS carries only the route key. While the suites below run, MONITOR on every master records each
// script call and the commands it ran; the last test checks every key against the slot of KEYS[1]
// and that every script of the package ran (docs/guides/redis.md, "Redis Cluster").
let monitor: Awaited<ReturnType<typeof monitorScriptKeys>> | undefined;
let report: ScriptKeyReport | undefined;
beforeAll(async () => {
  // no replicas, so no failover: a long node timeout keeps a master busy with the 50,000-message
  // checkpoint on a loaded machine from being marked failed (CLUSTERDOWN for every other call)
  cluster = await startRedisCluster({ masters: 3, nodeTimeoutMs: 60_000 });
  nodes.push(...cluster.nodes);
  monitor = await monitorScriptKeys(nodes.map((node) => Number(node.split(':')[1])));
});
afterAll(async () => {
  if (!report) await monitor?.stop();
  await cluster?.stop();
});

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

// The thread/run store, event log and inbox as createRedisStores makes them on a cluster: sharded,
// a thread's keys on its shard's slot, each shard a single-slot store (RedisThreadRunStore, ... on the
// shard's tagged prefix), so these suites run every script of those stores too (on one cluster the
// large batches of a second, unsharded run would only double the time a master is busy with them).
describeThreadRunStoreConformance({
  name: 'redis cluster, sharded',
  ...redisClusterHarnessParts(nodes, (options) => new ShardedRedisThreadRunStore({ ...options, shards: 3 })),
});

describeRunEventLogConformance({
  name: 'redis cluster, sharded',
  ...redisClusterHarnessParts(nodes, (options) => new ShardedRedisRunEventLog({ ...options, shards: 3 })),
});

describeRunControlInboxConformance({
  name: 'redis cluster, sharded',
  ...redisClusterHarnessParts(nodes, (options) => new ShardedRedisRunControlInbox({ ...options, shards: 3 })),
});

// the joint checkpoint write with the run's end, as createRedisStores makes it on a cluster (the
// thread's shard store with its shard's log)
const jointClients = new WeakMap<
  JointStores,
  { cluster: ReturnType<typeof clusterClient>; prefix: string; close(): Promise<void> }
>();
describeCheckpointWithEventsConformance({
  name: 'redis cluster, sharded',
  async create() {
    const cluster = clusterClient(nodes);
    const prefix = uniquePrefix('joint');
    const stores = createRedisStores({ redis: cluster as never, prefix });
    const joint = { threadRuns: stores.threadRuns, eventLog: stores.eventLog };
    jointClients.set(joint, { cluster, prefix, close: () => stores.close() });
    return joint;
  },
  async destroy(joint) {
    const owner = jointClients.get(joint);
    if (!owner) return;
    await owner.close();
    await deleteClusterKeys(owner.cluster, owner.prefix);
    await owner.cluster.quit();
  },
});

describe('scripts on a Redis Cluster', () => {
  // what the suites above do not call: the joint checkpoint, the sharded mailbox's peek, the swap
  // of a stale run locator entry
  it('runs the joint checkpoint and a claim over three shards', async () => {
    const cluster = clusterClient(nodes);
    const prefix = uniquePrefix('keys');
    const stores = createRedisStores({ redis: cluster as never, prefix, mailboxShards: 3 });
    try {
      await stores.threadRuns.createThread({ id: 'th1' });
      // the locator entry of a run whose thread is gone, left by a process stopped in deleteThread
      // between the delete and forgetting its runs: the next create swaps it
      await cluster.set(`${mailboxShardPrefix(prefix, threadShard('r1', 3), 3)}rt:r1`, 'gone');
      await stores.threadRuns.createRun(runRecord(0, 'created'));
      const writer = jointCheckpointWriter(stores.threadRuns, stores.eventLog);
      const outcome = await writer?.commitCheckpointWithEvents(
        {
          trigger: 'user_message',
          threadId: 'th1',
          expectedMessageCount: 0,
          messages: [{ visibility: 'external', message: { role: 'user', content: 'hi' } }],
          run: runRecord(1, 'running'),
        },
        { runId: 'r1', events: [{ type: 'step_start', step: 1, runId: 'r1', seq: 1, at: 1 }] },
      );
      expect(outcome?.status).toBe('committed');
      const acquirer = jointAcquirer(stores.threadRuns, stores.eventLog);
      const taken = await acquirer?.acquireRunWithFence('r1', { owner: 'w', leaseMs: 60_000 });
      expect(taken?.lastSeq).toBe(1);
      await Promise.all(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((threadId) =>
          stores.mailbox.enqueue({ threadId, runId: `run-${threadId}` }),
        ),
      );
      expect(await stores.mailbox.claim({ workerId: 'w', limit: 6, leaseMs: 60_000 })).toHaveLength(6);
    } finally {
      await stores.close();
      await deleteClusterKeys(cluster, prefix);
      await cluster.quit();
    }
  });

  it('touch only keys of the slot of their KEYS[1], every script of the package', async () => {
    report = await (monitor as NonNullable<typeof monitor>).stop();
    expect(report.violations.slice(0, 5)).toEqual([]);
    expect(report.commands).toBeGreaterThan(10_000);
    const names = new Map([...MUTATING_SCRIPT_SHAS].map(([name, sha]) => [sha, name]));
    const notRun = registeredScripts()
      .filter((script) => !report?.ran.has(script.sha))
      .map((script) => names.get(script.sha) ?? script.source.slice(0, 200));
    expect(notRun).toEqual([]);
    // every EVAL was recognised as a script of the package (so the coverage above is exact)
    expect([...report.ran].filter((sha) => sha.startsWith('unknown'))).toEqual([]);
  });
});

function runRecord(version: number, status: RunRecord['status']): RunRecord {
  return {
    runId: 'r1',
    threadId: 'th1',
    agentId: 'agent',
    origin: 'user',
    status,
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    state: {},
    version,
    createdAt: 1,
    updatedAt: 1,
  };
}
