import { type RunDispatch, runDispatchSchema } from '@awaken/contract';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ShardedRedisMailboxStore } from '../../sharded-redis-mailbox-store';
import { forkWorker } from '../../../test-support/fork-worker';
import { clusterClient, deleteClusterKeys } from '../../../test-support/redis-cluster-harness';
import { uniquePrefix } from '../../../test-support/redis-harness';

// Four OS processes claim from the sharded mailbox on the test run's cluster at once, trial after
// trial (each trial a fresh prefix, the processes released together by a start line): every
// dispatch is claimed by exactly one claim — one live lease, the leases outlast the test — and acked
// with its token, none is lost, and the ack of each claim succeeds (a worker fails on any error).

const nodes = inject('redisClusterNodes');
const client = clusterClient(nodes);
const base = uniquePrefix('cprocs');
afterAll(async () => {
  await deleteClusterKeys(client, base);
  await client.quit();
});

const TRIALS = 20;
const PER_TRIAL = 300;
const WORKERS = 4;

describe('the sharded mailbox across processes on a Redis Cluster', () => {
  it(`has ${WORKERS} processes claim ${TRIALS} x ${PER_TRIAL} dispatches: each claimed once, acked once, none lost`, async () => {
    const enqueued: RunDispatch[][] = [];
    const stores = Array.from(
      { length: TRIALS },
      (_, trial) =>
        new ShardedRedisMailboxStore({ redis: client as never, prefix: `${base}t${trial}`, shards: 3 }),
    );
    try {
      for (const store of stores) {
        enqueued.push(
          await Promise.all(
            Array.from({ length: PER_TRIAL }, (_, index) =>
              store.enqueue({
                threadId: `thread-${index % 120}`,
                runId: `run-${index}`,
                priority: index % 3,
              }),
            ),
          ),
        );
      }
      const results = await Promise.all(
        Array.from({ length: WORKERS }, (_, worker) =>
          forkWorker<{ dispatchId: string; claimToken: string }[][]>([
            'cluster-claim',
            nodes.join(','),
            base,
            `worker-${worker}`,
            `${TRIALS}:${PER_TRIAL}`,
            String(WORKERS),
          ]),
        ),
      );
      for (let trial = 0; trial < TRIALS; trial += 1) {
        const claims = results.flatMap((perTrial) => perTrial[trial] ?? []);
        const ids = claims.map((claim) => claim.dispatchId);
        expect(ids).toHaveLength(PER_TRIAL);
        expect(new Set(ids).size).toBe(PER_TRIAL);
        expect(new Set(ids)).toEqual(new Set((enqueued[trial] as RunDispatch[]).map((d) => d.dispatchId)));
        const store = stores[trial] as ShardedRedisMailboxStore;
        const stored = await Promise.all(ids.map((id) => store.loadDispatch(id)));
        for (const dispatch of stored) {
          expect(runDispatchSchema.parse(dispatch)).toMatchObject({ status: 'acked', attemptCount: 0 });
        }
        // spread: the dispatches of every shard were claimed (threads land on all three)
        const perShard = await Promise.all((await store.shards()).map((shard) => shard.countDispatches()));
        for (const counts of perShard) expect(counts.acked).toBeGreaterThan(50);
      }
      // contended: more than one process claimed in most trials
      const sharedTrials = Array.from({ length: TRIALS }, (_, trial) =>
        results.filter((perTrial) => (perTrial[trial]?.length ?? 0) > 0),
      ).filter((claimers) => claimers.length > 1).length;
      expect(sharedTrials).toBeGreaterThan(TRIALS / 2);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  }, 240_000);
});
