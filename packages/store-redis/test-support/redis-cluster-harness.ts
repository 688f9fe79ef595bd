import { Cluster, type Redis } from 'ioredis';
import { uniquePrefix } from './redis-harness';

/** What every Redis store exposes for the test harnesses. */
interface PrefixedStore {
  readonly redis: Redis;
  readonly prefix: string;
  close(): Promise<void>;
}

/** A cluster client on the test run's cluster (`inject('redisClusterNodes')`). */
export function clusterClient(nodes: readonly string[]): Cluster {
  return new Cluster(
    nodes.map((node) => {
      const [host, port] = node.split(':');
      return { host: host as string, port: Number(port) };
    }),
    { redisOptions: { maxRetriesPerRequest: 20 } },
  );
}

/** The cluster's masters (each the cluster's own connection to it). */
export async function masters(cluster: Cluster): Promise<Redis[]> {
  if (cluster.status !== 'ready') await cluster.ping();
  return cluster.nodes('master');
}

/** Deletes every key under `prefix` on every master (SCAN: tests only). */
export async function deleteClusterKeys(cluster: Cluster, prefix: string): Promise<void> {
  for (const node of await masters(cluster)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) await node.unlink(key);
    } while (cursor !== '0');
  }
}

/**
 * The conformance harness parts on the cluster: a fresh cluster client and unique prefix per test
 * (given without a hash tag: the store adds its own), peers on their own cluster client and the
 * store's effective prefix (as another process would open it), cleanup of the keys on every master.
 */
export function redisClusterHarnessParts<T extends PrefixedStore>(
  nodes: readonly string[],
  open: (options: { redis: Redis; prefix: string }) => T,
) {
  const clients = new WeakMap<T, Cluster>();
  const openOn = (prefix: string) => {
    const cluster = clusterClient(nodes);
    const store = open({ redis: cluster as unknown as Redis, prefix });
    clients.set(store, cluster);
    return store;
  };
  const closeStore = async (store: T) => {
    await store.close();
    await clients.get(store)?.quit();
  };
  return {
    async create(): Promise<T> {
      return openOn(uniquePrefix());
    },
    async destroy(store: T): Promise<void> {
      const cluster = clients.get(store);
      if (cluster) await deleteClusterKeys(cluster, store.prefix);
      await closeStore(store);
    },
    peers: {
      async connect(store: T): Promise<T> {
        return openOn(store.prefix);
      },
      disconnect: closeStore,
    },
  };
}
