/**
 * The mailbox on a Redis Cluster of 1 master vs 3 masters (`pnpm --filter @awaken/bench
 * bench:mailbox-cluster`): the same client (an ioredis Cluster, `createRedisStores`), the same
 * workload — 50 producer loops enqueue N dispatches on N threads, two consumer loops (concurrency 50
 * each) claim, run a no-op and ack — on a one-node cluster (one mailbox shard, all 16384 slots) and on
 * a three-master cluster (three shards) — with claims over all shards (the default) and with
 * rotating claims (`mailboxClaimFrom: 'rotating'`) — in interleaved rounds. Reported: cycles/s, and per master
 * its Redis CPU time (INFO cpu) per cycle and its share of the commands (INFO commandstats), from
 * which the throughput of masters on separate machines can be estimated (the slowest master bounds
 * it). Results: results/mailbox-cluster.md.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { MailboxStore, RunDispatch } from '@awaken/contract';
import { createRedisStores } from '@awaken/store-redis';
import {
  type RedisClusterHandle,
  startRedisCluster,
  startRedisServer,
  waitForClusterOk,
} from '@awaken/testing';
import { Cluster, Redis } from 'ioredis';
import { commandTotals, redisCpuSeconds } from './internal/redis-info';

const run = promisify(execFile);
const TOTAL = Number(process.env.AWAKEN_BENCH_ITEMS ?? 6000);
const ROUNDS = Number(process.env.AWAKEN_BENCH_ROUNDS ?? 3);
const CONCURRENCY = 50;

/** A one-master cluster: one cluster-enabled node that owns every slot. */
async function startOneNodeCluster(): Promise<RedisClusterHandle> {
  const server = await startRedisServer({
    // alone, a node never learns its own address: announce it
    extraArgs: [
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      'nodes.conf',
      '--cluster-announce-ip',
      '127.0.0.1',
    ],
  });
  await run('redis-cli', ['-p', String(server.port), 'cluster', 'addslotsrange', '0', '16383']);
  await waitForClusterOk(server.port);
  return { nodes: [`127.0.0.1:${server.port}`], masters: [server], replicas: [], stop: () => server.stop() };
}

function clusterOf(handle: RedisClusterHandle): Cluster {
  return new Cluster(handle.nodes.map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })));
}

async function produce(mailbox: MailboxStore, round: number): Promise<void> {
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      for (let index = loop; index < TOTAL; index += CONCURRENCY)
        await mailbox.enqueue({ threadId: `r${round}-t${index}`, runId: `r${round}-run-${index}` });
    }),
  );
}

/** A consumer loop: claim up to its free slots, no-op, ack each; waitForWork after an empty claim. */
async function consume(mailbox: MailboxStore, done: () => boolean, onAck: () => void): Promise<void> {
  let inFlight = 0;
  let slotFreed: (() => void) | undefined;
  const handle = async (dispatch: RunDispatch) => {
    await mailbox.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
    onAck();
    inFlight -= 1;
    slotFreed?.();
  };
  while (!done() || inFlight > 0) {
    if (inFlight === CONCURRENCY || done()) {
      await new Promise<void>((resolve) => {
        slotFreed = resolve;
        setTimeout(resolve, 50);
      });
      continue;
    }
    const batch = await mailbox.claim({ workerId: 'bench', limit: CONCURRENCY - inFlight, leaseMs: 30_000 });
    if (batch.length === 0) {
      await mailbox.waitForWork({ timeoutMs: 100 });
      continue;
    }
    inFlight += batch.length;
    for (const dispatch of batch) void handle(dispatch);
  }
}

interface Sample {
  rate: number;
  perMaster: { cpuUs: number; commandShare: number }[];
}

async function round(
  handle: RedisClusterHandle,
  index: number,
  claimFrom: 'all-shards' | 'rotating' = 'all-shards',
): Promise<Sample> {
  const admins = handle.masters.map((server) => new Redis(server.port, '127.0.0.1'));
  const clients = [clusterOf(handle), clusterOf(handle), clusterOf(handle)];
  const [producer, consumerA, consumerB] = clients.map((client) =>
    createRedisStores({
      redis: client as unknown as Redis,
      prefix: `bench${index}`,
      mailboxClaimFrom: claimFrom,
    }),
  ) as [
    ReturnType<typeof createRedisStores>,
    ReturnType<typeof createRedisStores>,
    ReturnType<typeof createRedisStores>,
  ];
  try {
    await Promise.all([producer, consumerA, consumerB].map((stores) => stores.mailbox.countDispatches()));
    const cpuBefore = await Promise.all(admins.map(redisCpuSeconds));
    const callsBefore = await Promise.all(admins.map(commandTotals));
    let acked = 0;
    const started = performance.now();
    const finished = () => acked >= TOTAL;
    const onAck = () => {
      acked += 1;
    };
    await Promise.all([
      produce(producer.mailbox, index),
      consume(consumerA.mailbox, finished, onAck),
      consume(consumerB.mailbox, finished, onAck),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const cpu = await Promise.all(admins.map(redisCpuSeconds));
    const calls = await Promise.all(admins.map(commandTotals));
    const perCalls = calls.map((total, at) => total.calls - (callsBefore[at]?.calls ?? 0));
    const allCalls = perCalls.reduce((a, b) => a + b, 0);
    return {
      rate: TOTAL / seconds,
      perMaster: admins.map((_, at) => ({
        cpuUs: (((cpu[at] ?? 0) - (cpuBefore[at] ?? 0)) * 1e6) / TOTAL,
        commandShare: (perCalls[at] ?? 0) / allCalls,
      })),
    };
  } finally {
    await Promise.all([producer, consumerA, consumerB].map((stores) => stores.close()));
    await Promise.all([...clients.map((client) => client.quit()), ...admins.map((admin) => admin.quit())]);
  }
}

const LABELS = {
  one: '1 master, 1 shard',
  three: '3 masters, 3 shards, claims from all shards (default)',
  rotating: "3 masters, 3 shards, `mailboxClaimFrom: 'rotating'`",
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const one = await startOneNodeCluster();
  const three = await startRedisCluster({ masters: 3 });
  const samples: Record<'one' | 'three' | 'rotating', Sample[]> = { one: [], three: [], rotating: [] };
  try {
    for (let index = 0; index < ROUNDS; index += 1) {
      samples.one.push(await round(one, index));
      samples.three.push(await round(three, index + 100));
      samples.rotating.push(await round(three, index + 200, 'rotating'));
    }
  } finally {
    await Promise.all([one.stop(), three.stop()]);
  }
  console.log(
    `mailbox enqueue -> claim -> ack, ${TOTAL} dispatches on ${TOTAL} threads, ${ROUNDS} rounds each (median)`,
  );
  console.log('| topology | cycles/s | Redis CPU µs per cycle, per master | share of commands, per master |');
  console.log('|---|---:|---|---|');
  for (const [name, list] of Object.entries(samples)) {
    const masters = list[0]?.perMaster.length ?? 0;
    const cpu = Array.from({ length: masters }, (_, at) =>
      median(list.map((s) => s.perMaster[at]?.cpuUs ?? 0)).toFixed(1),
    );
    const share = Array.from(
      { length: masters },
      (_, at) => `${(median(list.map((s) => s.perMaster[at]?.commandShare ?? 0)) * 100).toFixed(0)}%`,
    );
    console.log(
      `| ${LABELS[name as keyof typeof samples]} | ${median(list.map((s) => s.rate)).toFixed(0)} | ${cpu.join(' / ')} | ${share.join(' / ')} |`,
    );
  }
}

await main();
