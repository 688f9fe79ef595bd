import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type RedisServerHandle, type StartRedisOptions, startRedisServer } from './redis-server';

const run = promisify(execFile);

/** A real Redis Cluster on loopback: its nodes (masters first) and how to stop them all. */
export interface RedisClusterHandle {
  /** `127.0.0.1:<port>` of every node, masters first (what `new Cluster(...)` takes). */
  nodes: string[];
  masters: RedisServerHandle[];
  replicas: RedisServerHandle[];
  stop(): Promise<void>;
}

export interface StartRedisClusterOptions {
  /** Masters; default 3 (the least `redis-cli --cluster create` accepts). */
  masters?: number;
  /** Replicas per master; default 0. */
  replicasPerMaster?: number;
  /** Passed on to every node (append-only settings). */
  node?: Pick<StartRedisOptions, 'appendOnly' | 'appendFsync'>;
  /**
   * `cluster-node-timeout`: how long a node may not answer before the others mark it failed. Default
   * 2000 (a failover test's replica takes over quickly). A cluster without replicas cannot fail over,
   * so a long timeout there only keeps a master busy with a long script (or a loaded machine) from
   * being marked down, which would answer CLUSTERDOWN to every other call.
   */
  nodeTimeoutMs?: number;
}

/**
 * Starts `masters * (1 + replicasPerMaster)` `redis-server --cluster-enabled yes` nodes on free
 * loopback ports, joins them with `redis-cli --cluster create` (slots split evenly over the
 * masters, in node order) and waits until every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(options: StartRedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 0;
  const count = masters * (1 + replicasPerMaster);
  const servers: RedisServerHandle[] = [];
  const stop = () => Promise.all(servers.map((server) => server.stop())).then(() => undefined);
  try {
    const timeout =
      options.nodeTimeoutMs === undefined ? [] : ['--cluster-node-timeout', String(options.nodeTimeoutMs)];
    const started = await Promise.all(
      Array.from({ length: count }, () => startClusterNode({ ...options.node, extraArgs: timeout })),
    );
    servers.push(...started);
    const nodes = servers.map((server) => `127.0.0.1:${server.port}`);
    await run(
      'redis-cli',
      ['--cluster', 'create', ...nodes, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'],
      { timeout: 30_000 },
    );
    await Promise.all(servers.map((server) => waitForClusterOk(server.port)));
    // redis-cli makes the first `masters` nodes masters, the rest their replicas.
    return {
      nodes,
      masters: servers.slice(0, masters),
      replicas: servers.slice(masters),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The arguments every cluster node runs with (a node fails over after 2 s out of reach). */
const CLUSTER_NODE_ARGS = [
  '--cluster-enabled',
  'yes',
  '--cluster-config-file',
  'nodes.conf',
  '--cluster-node-timeout',
  '2000',
];

/**
 * Starts one cluster node (`redis-server --cluster-enabled yes`, a 2 s node timeout). Given the
 * `port` and `dir` of a node that was killed, it restarts it on its `nodes.conf`: it rejoins the
 * cluster it left (as a replica of whoever took over its slots).
 */
export function startClusterNode(options: StartRedisOptions = {}): Promise<RedisServerHandle> {
  return startRedisServer({ ...options, extraArgs: [...CLUSTER_NODE_ARGS, ...(options.extraArgs ?? [])] });
}

/** Polls `CLUSTER INFO` on one node until it says the cluster is ok (slots covered, nodes agree). */
export async function waitForClusterOk(port: number, withinMs = 20_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last = '';
  while (Date.now() < deadline) {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']).catch(
      (error: Error) => ({ stdout: error.message }),
    );
    last = stdout;
    if (stdout.includes('cluster_state:ok')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the Redis Cluster node on port ${port} did not reach cluster_state:ok:\n${last}`);
}
