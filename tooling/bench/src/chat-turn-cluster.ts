/**
 * A durable useChat turn on one Redis vs on a Redis Cluster of three masters
 * (`pnpm --filter @awaken/bench bench:chat-turn-cluster`): the same "weather in Paris" turn as
 * `bench:chat-turn` (one tool call, then the answer) through the Awaken AI SDK route, one server
 * process over Redis stores on a single redis-server, one over the same stores on a 3-master cluster
 * (hash-tagged keys, the mailbox sharded over the masters), this process the client. Interleaved
 * rounds at concurrency 1 / 8 / 32: requests/s and p50 latency, the cluster ÷ one-node ratio; and per
 * master of the cluster, its Redis CPU time per turn and share of the commands (INFO), from which the
 * throughput of masters on separate machines can be estimated.
 * Environment: BENCH_REQUESTS (per cell, default 300), BENCH_ROUNDS (default 3), BENCH_WARMUP (turns
 * per server before the rounds, default 100). Results: results/chat-turn-cluster.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startRedisCluster, startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { load } from './chat-turn/chat-client';
import { commandTotals, redisCpuSeconds } from './internal/redis-info';
import { median, percentile } from './internal/stats';
import { type ChildServer, startChildServer } from './server-http/child-server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const ENV_SET = Object.entries(process.env)
  .filter(([name]) => name.startsWith('BENCH_'))
  .map(([name, value]) => `${name}=${value} `)
  .join('');
const CONCURRENCY = [1, 8, 32];
const SERVE = fileURLToPath(new URL('./chat-turn/serve.ts', import.meta.url));
const PATH = '/v1/ai-sdk/agents/weather/chat';

type Topology = 'one node' | 'cluster';
interface Cell {
  rps: number;
  p50: number;
  p99: number;
}

async function main(): Promise<void> {
  const single = await startRedisServer();
  const cluster = await startRedisCluster({ masters: 3 });
  const admins = cluster.masters.map((server) => new Redis(server.port, '127.0.0.1'));
  const servers: Record<Topology, ChildServer> = {
    'one node': await startChildServer(['awaken-redis', single.url], { script: SERVE }),
    cluster: await startChildServer(['awaken-redis-cluster', cluster.nodes.join(',')], { script: SERVE }),
  };
  const cells: Record<Topology, Record<number, Cell[]>> = { 'one node': {}, cluster: {} };
  const perMaster: { cpuUs: number[]; share: number[] }[] = admins.map(() => ({ cpuUs: [], share: [] }));
  try {
    for (const server of Object.values(servers)) await load(new URL(server.url), PATH, 8, WARMUP);
    for (let round = 0; round < ROUNDS; round += 1) {
      const order: Topology[] = round % 2 === 0 ? ['one node', 'cluster'] : ['cluster', 'one node'];
      for (const concurrency of CONCURRENCY) {
        for (const topology of order) {
          const cpuBefore = topology === 'cluster' ? await Promise.all(admins.map(redisCpuSeconds)) : [];
          const callsBefore = topology === 'cluster' ? await Promise.all(admins.map(commandTotals)) : [];
          const result = await load(new URL(servers[topology].url), PATH, concurrency, REQUESTS);
          const list = cells[topology][concurrency] ?? [];
          list.push({
            rps: result.rps,
            p50: percentile(result.latencies, 0.5),
            p99: percentile(result.latencies, 0.99),
          });
          cells[topology][concurrency] = list;
          if (topology === 'cluster' && concurrency === 8) {
            const cpu = await Promise.all(admins.map(redisCpuSeconds));
            const calls = (await Promise.all(admins.map(commandTotals))).map(
              (total, at) => total.calls - (callsBefore[at]?.calls ?? 0),
            );
            const all = calls.reduce((a, b) => a + b, 0);
            admins.forEach((_, at) => {
              perMaster[at]?.cpuUs.push((((cpu[at] ?? 0) - (cpuBefore[at] ?? 0)) * 1e6) / REQUESTS);
              perMaster[at]?.share.push((calls[at] ?? 0) / all);
            });
          }
        }
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    await Promise.all(admins.map((admin) => admin.quit()));
    await Promise.all([single.stop(), cluster.stop()]);
  }
  const lines = [
    '# A useChat turn on one Redis vs a Redis Cluster of 3 masters',
    '',
    `\`${ENV_SET}pnpm --filter @awaken/bench bench:chat-turn-cluster\` — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the end; ${REQUESTS} turns per cell, ${ROUNDS} interleaved rounds (order alternating), medians.`,
    '',
    '| concurrency | one node req/s | cluster req/s | cluster ÷ one node | one node p50 ms | cluster p50 ms |',
    '|---:|---:|---:|---:|---:|---:|',
  ];
  for (const concurrency of CONCURRENCY) {
    const one = cells['one node'][concurrency] ?? [];
    const three = cells.cluster[concurrency] ?? [];
    const ratios = one.map((cell, at) => (three[at]?.rps ?? 0) / cell.rps);
    lines.push(
      `| ${concurrency} | ${median(one.map((c) => c.rps)).toFixed(1)} | ${median(three.map((c) => c.rps)).toFixed(1)} | ${median(ratios).toFixed(2)}× | ${median(one.map((c) => c.p50)).toFixed(1)} | ${median(three.map((c) => c.p50)).toFixed(1)} |`,
    );
  }
  lines.push(
    '',
    'Per master of the cluster at concurrency 8 (medians over rounds): Redis CPU time per turn and share of the commands.',
    '',
    '| master | Redis CPU µs per turn | share of commands |',
    '|---:|---:|---:|',
    ...perMaster.map(
      (entry, at) =>
        `| ${at + 1} | ${median(entry.cpuUs).toFixed(0)} | ${(median(entry.share) * 100).toFixed(0)}% |`,
    ),
  );
  const text = `${lines.join('\n')}\n`;
  process.stdout.write(text);
  writeFileSync(new URL('../results/chat-turn-cluster.md', import.meta.url), text);
}

await main();
