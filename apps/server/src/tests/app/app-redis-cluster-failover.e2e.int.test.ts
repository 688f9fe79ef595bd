import {
  type RedisClusterHandle,
  type RedisServerHandle,
  startClusterNode,
  startRedisCluster,
  waitForClusterOk,
} from '@awaken/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

// A master of the Redis Cluster killed (SIGKILL) under two reference-server processes while 50
// streaming runs are in flight, each calling the demo's send_invoice (a tool that must never run
// twice; each start of its body is logged, `demo: sending invoice`). The cluster is this file's own
// (three masters, one replica each; the shared test cluster has no replicas), the servers run with
// REDIS_WAIT_FOR_REPLICAS=1 (a write is acknowledged only once a replica holds it, so the promoted
// replica has every write a run went on from). Every run ends done with its answer, each invoice is
// sent once, and every stream reaches the run's end (resumed with Last-Event-ID where it was cut).

const RUNS = 50;
/** Bounds for a loaded two-core machine: node timeout 2 s, then the replica's election. */
const PROMOTED_WITHIN_MS = 20_000;
const DONE_WITHIN_MS = 40_000;

let cluster: RedisClusterHandle;
let restarted: RedisServerHandle | undefined;
let a: AppProcess;
let b: AppProcess;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  await Promise.all(cluster.replicas.map((replica) => waitForReplication(replica.port)));
  const env = {
    REDIS_CLUSTER_NODES: cluster.nodes.join(','),
    REDIS_WAIT_FOR_REPLICAS: '1',
    // longer than the killed node takes to come back and resync as the promoted master's replica:
    // a write there waits for it rather than failing as applied-but-unconfirmed
    REDIS_WAIT_TIMEOUT_MS: '10000',
    AWAKEN_REDIS_PREFIX: 'e2e-failover',
    AWAKEN_WORKERS: String(RUNS / 2 + 5),
    AWAKEN_DEMO_DELAY_MS: '20',
    AWAKEN_LEASE_MS: '10000',
    AWAKEN_KEEPALIVE_MS: '500',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([cluster?.stop(), restarted?.stop()]);
});

/** Runs `use` on a one-off plain connection to the node on `port`. */
async function onNode<T>(port: number, use: (node: Redis) => Promise<T>): Promise<T> {
  const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  node.on('error', () => undefined);
  try {
    await node.connect();
    return await use(node);
  } finally {
    node.disconnect();
  }
}

const replication = (port: number) => onNode(port, (node) => node.info('replication'));

async function waitForReplication(port: number): Promise<void> {
  await vi.waitFor(async () => expect(await replication(port)).toContain('master_link_status:up'), {
    timeout: 30_000,
    interval: 50,
  });
}

/** Every `demo: sending invoice` log line of both processes, by invoice. */
function sends(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const app of [a, b]) {
    for (const entry of app.logs) {
      if (entry.msg !== 'demo: sending invoice') continue;
      const invoice = String(entry.invoice);
      counts.set(invoice, (counts.get(invoice) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Reads a run's stream to its `run_finish`; a stream cut before it (the server could not tail the
 * log during the failover) is resumed with Last-Event-ID from the last id read, on either process.
 */
async function readToFinish(
  first: Response,
  runId: string,
): Promise<{ finish: Record<string, any> | undefined; ids: number[]; resumes: number }> {
  const ids: number[] = [];
  let response = first;
  let resumes = 0;
  const deadline = Date.now() + DONE_WITHIN_MS;
  for (;;) {
    let finish: Record<string, any> | undefined;
    try {
      const read = await readSse(response);
      ids.push(...read.ids);
      finish = read.events.find((event) => event.type === 'run_finish');
    } catch {
      // a cut connection: resume below
    }
    if (finish?.status === 'done' || Date.now() > deadline) return { finish, ids, resumes };
    resumes += 1;
    const app = resumes % 2 === 0 ? a : b;
    try {
      response = await fetch(`${app.url}/v1/runs/${runId}/events`, {
        headers: { 'last-event-id': String(ids.at(-1) ?? 0) },
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
    } catch {
      return { finish, ids, resumes };
    }
  }
}

describe('the reference server on a Redis Cluster whose busiest master is killed', () => {
  it('finishes every one of 50 streaming runs, sending each invoice once, after the replica takes over', async () => {
    const started = Date.now();
    const invoices = Array.from({ length: RUNS }, (_, index) => `fo-${index}`);
    const responses = await Promise.all(
      invoices.map((invoice, index) =>
        fetch(`${(index % 2 === 0 ? a : b).url}/v1/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ agentId: 'demo', input: `send invoice ${invoice}` }),
          // a stream that never ends (a stuck run) fails the test instead of hanging it
          signal: AbortSignal.timeout(PROMOTED_WITHIN_MS + DONE_WITHIN_MS),
        }),
      ),
    );
    for (const response of responses) expect(response.status).toBe(200);
    const runIds = responses.map((response) => response.headers.get('x-run-id') ?? '');
    const streams = responses.map((response, index) => readToFinish(response, runIds[index] as string));

    // every tool is running (send_invoice takes 3 s): kill the master holding the most keys
    await vi.waitFor(() => expect(sends().size).toBe(RUNS), {
      timeout: 20_000,
      interval: 20,
    });
    const sizes = await Promise.all(
      cluster.masters.map(async (master) => ({
        master,
        keys: await onNode(master.port, (node) => node.dbsize()),
      })),
    );
    sizes.sort((x, y) => y.keys - x.keys);
    const victim = (sizes[0] as { master: RedisServerHandle }).master;
    const replica = await replicaOf(victim.port);
    await victim.kill();
    const killedAt = Date.now();
    await vi.waitFor(async () => expect(await replication(replica.port)).toContain('role:master'), {
      timeout: PROMOTED_WITHIN_MS,
      interval: 100,
    });
    const promotedAfter = Date.now() - killedAt;
    // the killed node comes back (as an operator or a managed service would bring one) and rejoins as
    // the new master's replica: with REDIS_WAIT_FOR_REPLICAS=1 and one replica per master, the
    // promoted master's writes can be confirmed only once it has a replica again
    restarted = await startClusterNode({ port: victim.port, dir: victim.dir });
    await waitForClusterOk(victim.port, 30_000);

    const read = await Promise.all(streams);
    const finished = read.map(({ finish }) => finish?.status ?? 'none');
    expect(finished.filter((status) => status !== 'done')).toEqual([]);
    for (const [index, { ids }] of read.entries()) {
      // no event twice, none skipped by a resume
      expect(ids, runIds[index]).toEqual(ids.map((_, at) => at + 1));
    }
    // as stored, on either process: done, with the invoice's answer
    for (const [index, runId] of runIds.entries()) {
      const run = (await api((index % 2 === 0 ? b : a).url, `/v1/runs/${runId}`)).body;
      expect(run, runId).toMatchObject({
        status: 'done',
        response: `Done: invoice ${invoices[index]} is sent.`,
      });
    }
    const counts = sends();
    expect(invoices.filter((invoice) => counts.get(invoice) !== 1)).toEqual([]);
    console.info(
      `failover e2e: ${RUNS} runs, promoted ${promotedAfter} ms after the kill, all done ${Date.now() - killedAt} ms after it, ${read.reduce((sum, { resumes }) => sum + resumes, 0)} stream resumes, ${Date.now() - started} ms in all`,
    );
  }, 90_000);
});

/** The replica (among the cluster's) of the master on `masterPort`. */
async function replicaOf(masterPort: number): Promise<RedisServerHandle> {
  for (const replica of cluster.replicas) {
    if ((await replication(replica.port)).includes(`master_port:${masterPort}\r`)) return replica;
  }
  throw new Error(`no replica of ${masterPort}`);
}
