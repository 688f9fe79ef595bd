/**
 * Server service benchmark (the mailbox service: memory per waiting run, decision latency, throughput): `pnpm --filter @awaken/bench bench:server-service`.
 * Starts its own redis-server (loopback, no persistence) and measures:
 * (1) process heap per waiting run: a mailbox service over Redis with 10,000 runs waiting for an
 *     approval, against the same process before the runs (child process, --expose-gc), with the hot
 *     cache at its default (256) and off;
 * (2) decision → first resumed event (`run_start` of the resume, read from the event log), p50/p99,
 *     on memory and on Redis, hot (the receiving process holds the run in its hot cache and claims
 *     the resume) and cold (cache off: queue → worker → load from the store);
 * (3) runs completed per second with 1, 2 and 4 worker processes on one Redis (scripted model, one
 *     tool call per run, 8 activations per process), against a bare loop that only claims and acks
 *     the same number of dispatches with the same processes, and the Redis commands per run.
 * Writes results/server-service.md. BENCH_WAITING, BENCH_SAMPLES, BENCH_RUNS scale the three parts.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRedisStores } from '@awaken/store-redis';
import { startRedisServer } from '@awaken/testing';
import { percentile } from './internal/stats';
import { decisionLatencies } from './server-service/latency';
import { memoryServiceStores, redisServiceStores } from './server-service/stores';
import { commandsPerRun } from './server-service/round-trips';
import { runsPerSecond } from './server-service/throughput';

const WAITING = Number(process.env.BENCH_WAITING ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 1_000);
const PROBE = fileURLToPath(new URL('./server-service/memory-probe.ts', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

interface Probe {
  baseline: { heap: number; rss: number };
  waiting: { heap: number; rss: number };
  hotRuns: number;
}

function probe(url: string, hotCacheSize: number): Probe {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', PROBE, JSON.stringify({ url, count: WAITING, hotCacheSize })],
    { cwd: BENCH_DIR, encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Probe;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(2);
const ms = (value: number) => value.toFixed(2);

async function main(): Promise<void> {
  const server = await startRedisServer();
  const lines: string[] = [];
  try {
    const redisVersion = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim();
    // (1)
    const withCache = probe(server.url, 256);
    const noCache = probe(server.url, 0);
    const perRun = (result: Probe) => (result.waiting.heap - result.baseline.heap) / WAITING;
    const cacheCost =
      (withCache.waiting.heap - noCache.waiting.heap - (withCache.baseline.heap - noCache.baseline.heap)) /
      256;
    const beyond =
      (withCache.waiting.heap - withCache.baseline.heap - 256 * Math.max(0, cacheCost)) / (WAITING - 256);
    // (2)
    const latency: Array<[string, number[]]> = [];
    for (const backend of ['memory', 'redis'] as const) {
      for (const hot of [true, false]) {
        const redis =
          backend === 'redis'
            ? createRedisStores({ redis: server.url, prefix: `bench-lat:${hot}:` })
            : undefined;
        const stores = redis ? redisServiceStores(redis) : memoryServiceStores();
        latency.push([
          `${backend}, ${hot ? 'hot' : 'cold'}`,
          await decisionLatencies({ stores, hot, samples: SAMPLES, warmup: 30 }),
        ]);
        await redis?.close();
      }
    }
    // (3)
    const throughput: Array<[number, number, number]> = [];
    for (const processes of [1, 2, 4]) {
      const service = await runsPerSecond({
        url: server.url,
        mode: 'service',
        processes,
        count: RUNS,
        concurrency: 8,
      });
      const bare = await runsPerSecond({
        url: server.url,
        mode: 'bare',
        processes,
        count: RUNS,
        concurrency: 8,
      });
      throughput.push([processes, service, bare]);
    }
    const commands = await commandsPerRun(server.url, 200);
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' / ');
    lines.push(
      '# Server service benchmark',
      '',
      'Command: `pnpm --filter @awaken/bench bench:server-service` (tooling/bench/src/server-service.ts and',
      'src/server-service/). Setup: a dedicated redis-server started by the benchmark (loopback, no persistence),',
      `${redisVersion}; Node ${process.version}; ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average`,
      `${load} at the end of the run. Every process of the benchmark (the bench, its worker processes, Redis and`,
      'anything else on the machine) shares these CPUs: absolute figures are noisy, compare the ratios.',
      '',
      `## (1) Process memory per waiting run (${WAITING} runs waiting on Redis)`,
      '',
      'A mailbox service over Redis (16 activations) in a child process started with `--expose-gc`; heap after',
      'four GCs, after 500 warm-up runs that finished (so optimised code and connections exist) and once all',
      `${WAITING} runs suspended and their dispatches were acked.`,
      '',
      '| hot cache | heap before | heap with the runs waiting | per waiting run | runs in the cache |',
      '|---|---|---|---|---|',
      `| 256 (default) | ${kb(withCache.baseline.heap)} KB | ${kb(withCache.waiting.heap)} KB | ${kb(perRun(withCache) * 1)} KB | ${withCache.hotRuns} |`,
      `| off | ${kb(noCache.baseline.heap)} KB | ${kb(noCache.waiting.heap)} KB | ${kb(perRun(noCache))} KB | ${noCache.hotRuns} |`,
      '',
      '| summary | value | target |',
      '|---|---|---|',
      `| per waiting run beyond the cache (cache at default) | **${kb(beyond)} KB** | <= 2 KB |`,
      `| per waiting run with the cache off | ${kb(perRun(noCache))} KB | |`,
      `| per run held in the hot cache | ${kb(cacheCost)} KB | |`,
      '',
      `## (2) Decision → first resumed event (${SAMPLES} samples after 30 warm-up)`,
      '',
      'One service; each sample submits a run, waits until it is suspended and its dispatch acked, then',
      "times `control.decide(...)` until the resume's `run_start` is read from the event log. Hot: the",
      'service keeps the run in its hot cache and claims the resume itself. Cold: cache off; the resume',
      'dispatch is claimed by a worker woken by `waitForWork` and the run is loaded from the store.',
      '',
      '| backend, path | p50 ms | p99 ms | target p50 |',
      '|---|---|---|---|',
      ...latency.map(
        ([name, values]) =>
          `| ${name} | ${ms(percentile(values, 0.5))} | ${ms(percentile(values, 0.99))} | ${name.startsWith('memory') ? '<= 5 ms' : '<= 10 ms'} |`,
      ),
      '',
      `## (3) Runs completed per second (${RUNS} runs, one tool call each)`,
      '',
      'The runs are submitted (write-ahead) before the clock starts; the worker processes (8 activations',
      'each) start together and the clock stops when every dispatch was acked. The bare loop enqueues as',
      'many dispatches (no runs) and its processes only claim and ack them, 8 in flight each.',
      '',
      '| worker processes | service runs/s | bare claim+ack/s | ratio |',
      '|---|---|---|---|',
      ...throughput.map(
        ([processes, service, bare]) =>
          `| ${processes} | ${service.toFixed(0)} | ${bare.toFixed(0)} | ${(service / bare).toFixed(2)} |`,
      ),
      '',
      'Where the difference comes from: Redis commands per run while one worker executes 200 such runs',
      '(`INFO commandstats`; `evalsha` is one store round trip, every store operation being one script; the',
      'other rows are the commands those scripts run). The bare loop needs about two round trips per',
      'dispatch (its claim, amortised over a batch, and its ack).',
      '',
      '| command | per run |',
      '|---|---|',
      ...commands.map(([name, perRun]) => `| ${name} | ${perRun.toFixed(1)} |`),
      '',
    );
  } finally {
    await server.stop();
  }
  const text = lines.join('\n');
  console.log(text);
  if (process.env.BENCH_WRITE !== '0') {
    writeFileSync(fileURLToPath(new URL('../results/server-service.md', import.meta.url)), text);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
