import { AwakenError } from '@awaken/contract';
import { Cluster, type ClusterOptions, type Redis } from 'ioredis';
import { type ConnectionLogSink, logConnectionState } from './connection-log';
import { OUTAGE_TOLERANT_REDIS_OPTIONS } from './outage-tolerant-options';

export interface CreateRedisClusterClientOptions {
  /** ioredis Cluster options; they win over the defaults below. */
  cluster?: ClusterOptions;
  /** Where connection-state lines go (one JSON object per line; default stderr). */
  log?: ConnectionLogSink;
}

/**
 * Parses `host:port,host:port,…` (what `REDIS_CLUSTER_NODES` holds) into startup nodes; rejects
 * anything else with `invalid_config`.
 */
export function parseClusterNodes(text: string): { host: string; port: number }[] {
  const nodes = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(entry);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) {
        throw new AwakenError('invalid_config', `cluster node ${entry}: expected host:port`);
      }
      return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
    });
  if (nodes.length === 0) throw new AwakenError('invalid_config', 'no cluster node given');
  return nodes;
}

/**
 * An ioredis `Cluster` for the stores (`createRedisStores({ redis: cluster })`): each node
 * connection rides out a short outage as {@link OUTAGE_TOLERANT_REDIS_OPTIONS} does, MOVED / ASK are
 * followed up to 16 redirections, TRYAGAIN, CLUSTERDOWN and a failover are retried after 100-300 ms
 * (ioredis re-reads the slot map), and the stores' request ids make a re-sent script safe. The
 * connection state is logged as one JSON line per change, never thrown at the process.
 */
export function createRedisClusterClient(
  nodes: string | readonly { host: string; port: number }[],
  options: CreateRedisClusterClientOptions = {},
): Redis {
  const startup = typeof nodes === 'string' ? parseClusterNodes(nodes) : [...nodes];
  const cluster = new Cluster(startup, {
    enableOfflineQueue: true,
    maxRedirections: 16,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 100,
    clusterRetryStrategy: (times: number) => Math.min(times * 100, 1_000),
    ...options.cluster,
    redisOptions: { ...OUTAGE_TOLERANT_REDIS_OPTIONS, ...options.cluster?.redisOptions },
  });
  const client = cluster as unknown as Redis;
  logConnectionState(client, 'cluster', options.log);
  return client;
}
