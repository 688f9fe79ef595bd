import { AwakenError } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { isCluster, masterFor } from '../cluster/cluster-topology';
import { toStoreError } from '../connection/redis-error';

/**
 * `waitForReplicas`: after each write, `WAIT replicas timeoutMs` on the connection that wrote it, so
 * a write is acknowledged only once that many replicas hold it. Redis replication is asynchronous: a
 * write a master acknowledged and then lost in a crash before any replica received it is gone after
 * the replica is promoted. With this option the store acknowledges no such write.
 */
export interface ReplicaWait {
  /** How many replicas must hold a write before it is acknowledged (>= 1). */
  replicas: number;
  /** How long to wait for them (ms, >= 1); the write then fails with `store_failure`. */
  timeoutMs: number;
}

/** Checks the option; undefined stays undefined (no waiting: Redis's default behaviour). */
export function replicaWait(option: ReplicaWait | undefined): ReplicaWait | undefined {
  if (option === undefined) return undefined;
  const { replicas, timeoutMs } = option;
  if (!Number.isSafeInteger(replicas) || replicas < 1) {
    throw new AwakenError(
      'invalid_config',
      `waitForReplicas.replicas must be an integer >= 1, got ${replicas}`,
    );
  }
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw new AwakenError(
      'invalid_config',
      `waitForReplicas.timeoutMs must be an integer >= 1, got ${timeoutMs} (0 would wait forever)`,
    );
  }
  return { replicas, timeoutMs };
}

/**
 * Waits until `wait.replicas` replicas acknowledged every write made so far on the connection that
 * ran a script routed by `routeKey` (on a cluster: the cluster's own connection to the master of
 * that key's slot, which is the one the script went through; on one node: the client). `WAIT` counts
 * the connection's last write, so on a shared connection it may also wait for writes of other
 * calls made just after — never less than this one.
 *
 * Fewer replicas in time: a retryable `store_failure` saying the write happened on the master but
 * is not known to be replicated (a failover may or may not keep it; read before repeating a write
 * that is not naturally idempotent, as after any `store_failure` of a write).
 */
export async function confirmReplicated(
  redis: Redis,
  routeKey: string | undefined,
  wait: ReplicaWait,
): Promise<void> {
  let acknowledged: number;
  try {
    const node = isCluster(redis) && routeKey !== undefined ? await masterFor(redis, routeKey) : redis;
    acknowledged = Number(await node.wait(wait.replicas, wait.timeoutMs));
  } catch (error) {
    throw toStoreError(error);
  }
  if (acknowledged < wait.replicas) {
    throw new AwakenError(
      'store_failure',
      `the write was applied on the master but only ${acknowledged} of ${wait.replicas} replicas acknowledged it within ${wait.timeoutMs} ms: a failover may lose it`,
      { retryable: true },
    );
  }
}
