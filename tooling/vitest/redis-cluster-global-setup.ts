import { startRedisCluster } from '@awaken/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `127.0.0.1:<port>` of each master of the test run's Redis Cluster. */
    redisClusterNodes: string[];
  }
}

/**
 * Starts one real Redis Cluster (three masters, no replicas) for the whole test run on free
 * loopback ports and provides its nodes as `inject('redisClusterNodes')`. Tests isolate themselves
 * with a unique key prefix, as on the single Redis. The failover tests start their own cluster with
 * replicas, since they kill nodes.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // no replicas, so no failover: a long node timeout keeps a master busy with a long script on a
  // loaded machine from being marked failed (CLUSTERDOWN for every file using the cluster)
  const cluster = await startRedisCluster({ masters: 3, nodeTimeoutMs: 60_000 });
  project.provide('redisClusterNodes', cluster.nodes);
  return () => cluster.stop();
}
