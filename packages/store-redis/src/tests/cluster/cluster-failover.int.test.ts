import { AwakenError, type RunDispatch } from '@awaken/contract';
import {
  type RedisClusterHandle,
  type RedisServerHandle,
  startClusterNode,
  startRedisCluster,
  waitForClusterOk,
} from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisStores, createRedisStores } from '../../create-redis-stores';
import { threadShard } from '../../internal/cluster/cluster-topology';
import { keySlot } from '../../internal/cluster/key-slot';
import { createRedisClusterClient } from '../../internal/connection/cluster-client';
import type { ShardedRedisMailboxStore } from '../../sharded-redis-mailbox-store';
import type { ShardedRedisThreadRunStore } from '../../sharded-redis-thread-run-store';
import { nodeInfo, slotOwnerPort, waitForReplicaLink } from '../../../test-support/cluster-nodes';
import { uniquePrefix } from '../../../test-support/redis-harness';

// A master killed (SIGKILL) while the stores are under load, on a cluster of three masters with one
// replica each (started once for this file: the shared test cluster has no replicas).
//
// What Redis replication can lose: it is asynchronous, so a write a master acknowledged but had not
// yet sent to its replica is gone once that replica is promoted. The stores here run with
// `waitForReplicas: { replicas: 1 }` (WAIT after every write): a call resolves only once a replica
// holds its write, so every write this test counts as acknowledged is on the replica that takes over.
// Writes that failed (store_failure during the outage) are not counted: they may or may not survive.
// The enqueue counter (a plain INCRBY, not waited for) can step back after a failover; that only
// changes the order of dispatches enqueued around the failover, which no assertion here relies on.

const LEASE_MS = 4_000;
const THREADS = 30;
/** Bounds, generous for a loaded two-core machine: node timeout 2 s, then the replica's election. */
const PROMOTED_WITHIN_MS = 20_000;
const RESUMED_WITHIN_MS = 45_000;

let cluster: RedisClusterHandle;
const restarted: RedisServerHandle[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  await Promise.all(cluster.replicas.map((replica) => waitForReplicaLink(replica.port)));
}, 120_000);

afterAll(async () => {
  await Promise.all(restarted.map((server) => server.stop()));
  await cluster?.stop();
});

function openStores(prefix: string, timeoutMs = 2_000): RedisStores {
  const client = createRedisClusterClient(cluster.nodes.join(','), { log: () => undefined });
  return createRedisStores({
    redis: client,
    prefix,
    mailboxShards: 3,
    waitForReplicas: { replicas: 1, timeoutMs },
  });
}

async function closeStores(stores: RedisStores): Promise<void> {
  await stores.close();
  stores.redis.disconnect();
}

/** The replica of the master on `masterPort`, among the cluster's replicas. */
async function replicaOf(masterPort: number): Promise<RedisServerHandle> {
  for (const replica of cluster.replicas) {
    const info = await nodeInfo(replica.port, 'replication');
    if (Number(info.master_port) === masterPort) return replica;
  }
  throw new Error(`no replica of ${masterPort}`);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const codeOf = (error: unknown) => (AwakenError.isInstance(error) ? error.code : String(error));

describe('the stores on a Redis Cluster with replicas', () => {
  it('fails a write no replica confirms in time with store_failure, and acknowledges it once one does', async () => {
    const stores = openStores(uniquePrefix('replwait'), 500);
    try {
      await stores.threadRuns.createThread({ id: 'before' });
      // the master of the shard of the thread written below
      const shards = await (stores.threadRuns as ShardedRedisThreadRunStore).shards();
      const home = shards[threadShard('unconfirmed', shards.length)]?.prefix;
      const owner = await slotOwnerPort(
        cluster.nodes.map((n) => Number(n.split(':')[1]))[0] as number,
        keySlot(`${home}route`),
      );
      const replica = await replicaOf(owner);
      const pid = Number((await nodeInfo(replica.port, 'server')).process_id);
      process.kill(pid, 'SIGSTOP'); // well under the 2 s node timeout: no failover
      let failure: unknown;
      try {
        await stores.threadRuns.createThread({ id: 'unconfirmed' });
      } catch (error) {
        failure = error;
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      expect(failure).toMatchObject({ code: 'store_failure', retryable: true });
      expect(String((failure as Error).message)).toContain('0 of 1 replicas');
      // applied on the master all the same (WAIT does not roll back): the caller must re-read
      expect(await stores.threadRuns.getThread('unconfirmed')).not.toBeNull();
      await expect(stores.threadRuns.createThread({ id: 'after' })).resolves.toMatchObject({ id: 'after' });
    } finally {
      await closeStores(stores);
    }
  }, 30_000);

  it('loses no acknowledged write when a master is killed under load, claims nothing twice while a lease lives, and resumes', async () => {
    const stores = openStores(uniquePrefix('failover'));
    const mailbox = stores.mailbox as ShardedRedisMailboxStore;
    const ports = cluster.nodes.map((node) => Number(node.split(':')[1]));
    // the victim: the master of shard 0 (its threads' dispatches, runs and event logs go with it)
    const [first] = await mailbox.shards();
    const victimPort = await slotOwnerPort(ports[0] as number, keySlot(`${first?.prefix}route`));
    const victim = cluster.masters.find((server) => server.port === victimPort) as RedisServerHandle;
    const replica = await replicaOf(victimPort);
    const shards = await mailbox.shards();
    const victimShards = new Set<number>();
    for (const [index, shard] of shards.entries()) {
      if ((await slotOwnerPort(ports[0] as number, keySlot(`${shard.prefix}route`))) === victimPort)
        victimShards.add(index);
    }
    expect(victimShards.size).toBe(1);
    const onVictim = (threadId: string) => victimShards.has(threadShard(threadId, shards.length));

    const enqueued = new Map<string, string>(); // dispatch id -> thread, acknowledged enqueues
    const claims: { dispatchId: string; claimToken: string; leaseUntil: number; at: number }[] = [];
    const acked = new Map<string, number>(); // dispatch id -> acknowledged acks
    const runs: string[] = []; // runs whose thread, run and first event were acknowledged
    const failures: string[] = [];
    const victimAcksAt: number[] = []; // when an ack of a dispatch on the victim's shard succeeded
    const runsAt: number[] = [];
    let producing = true;
    let consuming = true;

    const producer = (async () => {
      for (let i = 0; producing; i += 1) {
        const threadId = `t${i % THREADS}`;
        try {
          const dispatch = await mailbox.enqueue({ threadId, runId: `run-${i}`, dispatchId: `d-${i}` });
          enqueued.set(dispatch.dispatchId, threadId);
        } catch (error) {
          failures.push(`enqueue ${codeOf(error)}`);
          await pause(50);
        }
        await pause(3);
      }
    })();
    const consumer = async (workerId: string) => {
      while (consuming) {
        let batch: RunDispatch[] = [];
        try {
          batch = await mailbox.claim({ workerId, limit: 5, leaseMs: LEASE_MS });
        } catch (error) {
          failures.push(`claim ${codeOf(error)}`);
          await pause(50);
        }
        if (batch.length === 0) await pause(10);
        for (const dispatch of batch) {
          const claimToken = dispatch.claimToken as string;
          claims.push({
            dispatchId: dispatch.dispatchId,
            claimToken,
            leaseUntil: dispatch.leaseUntil as number,
            at: Date.now(),
          });
          try {
            await mailbox.ack({ dispatchId: dispatch.dispatchId, claimToken });
            acked.set(dispatch.dispatchId, (acked.get(dispatch.dispatchId) ?? 0) + 1);
            if (onVictim(dispatch.threadId)) victimAcksAt.push(Date.now());
          } catch (error) {
            failures.push(`ack ${codeOf(error)}`);
          }
        }
      }
    };
    const consumers = ['w1', 'w2', 'w3'].map(consumer);
    const reclaimer = (async () => {
      while (consuming) {
        await mailbox
          .reclaimExpiredLeases({ limit: 50 })
          .catch((error) => failures.push(`reclaim ${codeOf(error)}`));
        await pause(300);
      }
    })();
    const runWriter = (async () => {
      for (let j = 0; producing; j += 1) {
        try {
          await stores.threadRuns.createThread({ id: `rt-${j}` });
          await stores.threadRuns.createRun({
            runId: `rr-${j}`,
            threadId: `rt-${j}`,
            agentId: 'agent',
            origin: 'user',
            status: 'created',
            steps: 0,
            usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
            state: {},
            version: 0,
            createdAt: 1_700_000_000_000,
            updatedAt: 1_700_000_000_000,
          });
          await stores.eventLog.append(`rr-${j}`, [
            { type: 'text_delta', runId: `rr-${j}`, seq: 1, at: Date.now(), messageId: 'm', delta: 'x' },
          ]);
          runs.push(`rr-${j}`);
          runsAt.push(Date.now());
        } catch (error) {
          failures.push(`run write ${codeOf(error)}`);
          await pause(50);
        }
      }
    })();

    try {
      // under load before the kill: acks on the victim's shard and run writes both happened
      const warm = Date.now();
      while (victimAcksAt.length < 50 || runs.length < 20) {
        if (Date.now() - warm > 60_000) throw new Error('the load did not start');
        await pause(50);
      }
      const killedAt = Date.now();
      const before = { acks: victimAcksAt.length, runs: runs.length };
      await victim.kill(); // SIGKILL: nothing flushed, no goodbye to the cluster

      let promotedAt = 0;
      while (promotedAt === 0) {
        if (Date.now() - killedAt > PROMOTED_WITHIN_MS) throw new Error('the replica was not promoted');
        const info = await nodeInfo(replica.port, 'replication').catch(() => ({ role: '' }));
        if (info.role === 'master') promotedAt = Date.now();
        else await pause(100);
      }
      // the killed node comes back (as an operator or a managed service would bring one) and rejoins
      // as the new master's replica, so writes on its slots can be confirmed again
      restarted.push(await startClusterNode({ port: victim.port, dir: victim.dir }));
      await waitForClusterOk(victim.port, 30_000);

      let resumedAt = 0;
      while (resumedAt === 0) {
        if (Date.now() - killedAt > RESUMED_WITHIN_MS) throw new Error('operations did not resume');
        const ackAfter = victimAcksAt.find((at) => at > promotedAt);
        const runAfter = runsAt.find((at) => at > promotedAt);
        if (ackAfter !== undefined && runAfter !== undefined) resumedAt = Math.max(ackAfter, runAfter);
        else await pause(50);
      }
      const afterResume = { acks: victimAcksAt.length, runs: runs.length };
      await pause(1_000);
      producing = false;
      await Promise.all([producer, runWriter]);

      // drain: every dispatch ends acked (a claim lost in the failure comes back when its lease ends)
      const drainedBy = Date.now() + 30_000;
      for (;;) {
        const counts = await mailbox.countDispatches();
        if (counts.queued + counts.claimed === 0) break;
        if (Date.now() > drainedBy) throw new Error(`not drained: ${JSON.stringify(counts)}`);
        await pause(100);
      }
      consuming = false;
      await Promise.all([...consumers, reclaimer]);

      console.info(
        `failover: promoted after ${promotedAt - killedAt} ms, operations resumed ${resumedAt - killedAt} ms after the kill; ` +
          `${enqueued.size} enqueues, ${claims.length} claims, ${acked.size} acks, ${runs.length} runs acknowledged; ` +
          `${failures.length} failed calls (${[...new Set(failures)].join(', ')})`,
      );
      expect(promotedAt - killedAt).toBeLessThan(PROMOTED_WITHIN_MS);
      expect(resumedAt - killedAt).toBeLessThan(RESUMED_WITHIN_MS);
      expect(afterResume.acks).toBeGreaterThan(before.acks);
      expect(afterResume.runs).toBeGreaterThan(before.runs);

      // nothing acknowledged is lost: every acknowledged enqueue and ack is there, acked
      const stored = await Promise.all([...enqueued.keys()].map((id) => mailbox.loadDispatch(id)));
      expect(stored.filter((dispatch) => dispatch?.status !== 'acked').map((d) => d?.dispatchId)).toEqual([]);
      // every acknowledged run write is there
      const missing: string[] = [];
      for (const runId of runs) {
        const [run, events] = await Promise.all([
          stores.threadRuns.getRun(runId),
          stores.eventLog.read(runId, { afterSeq: 0 }),
        ]);
        if (run === null || events.length !== 1) missing.push(runId);
      }
      expect(missing).toEqual([]);

      // fencing: no dispatch acked twice, and no dispatch claimed again while a lease on it lived
      expect([...acked.values()].filter((count) => count > 1)).toEqual([]);
      const byDispatch = new Map<string, typeof claims>();
      for (const claim of claims)
        byDispatch.set(claim.dispatchId, [...(byDispatch.get(claim.dispatchId) ?? []), claim]);
      for (const [dispatchId, list] of byDispatch) {
        if (list.length < 2) continue;
        list.sort((a, b) => a.leaseUntil - b.leaseUntil);
        for (let k = 1; k < list.length; k += 1) {
          const earlier = list[k - 1] as (typeof list)[number];
          const later = list[k] as (typeof list)[number];
          // the later claim started (leaseUntil - LEASE_MS, Redis time) after the earlier lease ended
          expect({
            dispatchId,
            startedAfterEarlierLease: later.leaseUntil - LEASE_MS > earlier.leaseUntil,
          }).toEqual({
            dispatchId,
            startedAfterEarlierLease: true,
          });
        }
      }
    } finally {
      producing = false;
      consuming = false;
      await Promise.allSettled([producer, runWriter, reclaimer, ...consumers]);
      await closeStores(stores);
    }
  }, 180_000);
});
