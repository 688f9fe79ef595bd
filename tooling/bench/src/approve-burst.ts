/**
 * Approve-burst benchmark (issue 38: "2,000 runs created and approved at once by two processes: p99
 * 49 s on Redis"): `pnpm --filter @awaken/bench bench:approve-burst`. Starts its own redis-server
 * (loopback, no persistence) and two server processes (the HTTP API over a mailbox service, 4
 * activations each, one Redis prefix). All BENCH_RUNS runs (default 300) start at once, alternating
 * between the two servers: `POST /v1/runs` (`stream: false`, one approval-gated call), polling
 * `GET /v1/runs/:id` every BENCH_POLL_MS (default 100) ms until it waits, the decision through the *other* server, polling
 * until it is done. Reports per-run latency (start → done) p50/p99/max, each phase's p50/p99, the
 * wall time, and Redis commands per run (INFO commandstats). BENCH_CPU_PROF=<dir> runs the servers
 * with `--cpu-prof` into that directory. Prints a markdown table; BENCH_OUT=<file> writes it too.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { percentile } from './internal/stats';
import { startChildServer } from './server-http/child-server';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 100);
const SERVE = fileURLToPath(new URL('./approve-burst/serve-redis.ts', import.meta.url));

interface Phases {
  submit: number;
  toWaiting: number;
  decide: number;
  toDone: number;
  total: number;
}

async function call(url: string, init?: { body: unknown }): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: init ? 'POST' : 'GET',
    headers: init ? { 'content-type': 'application/json' } : {},
    ...(init ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function until(url: string, status: string): Promise<any> {
  for (;;) {
    const run = await call(url);
    if (run.body?.status === status) return run.body;
    if (run.body?.status === 'done' && status !== 'done')
      throw new Error(`run ended: ${JSON.stringify(run.body)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function oneRun(servers: string[], index: number): Promise<Phases> {
  const home = servers[index % servers.length] as string;
  const other = servers[(index + 1) % servers.length] as string;
  const started = performance.now();
  const submitted = await call(`${home}/v1/runs`, {
    body: { agentId: 'bench', input: 'approve', stream: false },
  });
  if (submitted.status !== 202)
    throw new Error(`submit: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  const { runId } = submitted.body as { runId: string };
  const afterSubmit = performance.now();
  const waiting = await until(`${home}/v1/runs/${runId}`, 'waiting');
  const waited = performance.now();
  const ticket = waiting.waiting.tickets[0];
  const decided = await call(`${other}/v1/runs/${runId}/decision`, {
    body: { ticketId: ticket.ticketId, result: { approved: true } },
  });
  if (decided.status !== 200) throw new Error(`decide: ${decided.status} ${JSON.stringify(decided.body)}`);
  const afterDecide = performance.now();
  await until(`${other}/v1/runs/${runId}`, 'done');
  const done = performance.now();
  return {
    submit: afterSubmit - started,
    toWaiting: waited - afterSubmit,
    decide: afterDecide - waited,
    toDone: done - afterDecide,
    total: done - started,
  };
}

/** Calls per Redis command since RESETSTAT (commands inside scripts included; evalsha is one round trip). */
async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const stats = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of stats.matchAll(/cmdstat_([^:]+):calls=(\d+)/g))
    calls.set(match[1] as string, Number(match[2]));
  return calls;
}

/** The dispatches the burst made (each stored under the mailbox's `d:<id>` key). */
async function dispatchCount(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*d:*`, 'COUNT', 1000);
    cursor = next;
    count += keys.filter((key) => /(^|:)d:[^:]+$/.test(key.slice(prefix.length))).length;
  } while (cursor !== '0');
  return count;
}

async function main(): Promise<void> {
  const redisServer = await startRedisServer();
  const redis = new Redis(redisServer.url);
  const prefix = `bench-burst:${randomUUID()}:`;
  const profileDir = process.env.BENCH_CPU_PROF;
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const job = JSON.stringify({ url: redisServer.url, prefix, concurrency: 4 });
  const servers = await Promise.all([1, 2].map(() => startChildServer([job], { script: SERVE, nodeArgs })));
  const lines: string[] = [];
  try {
    await redis.config('RESETSTAT');
    const started = performance.now();
    const phases = await Promise.all(
      Array.from({ length: RUNS }, (_, index) =>
        oneRun(
          servers.map((server) => server.url),
          index,
        ),
      ),
    );
    const wall = performance.now() - started;
    const calls = await commandCalls(redis);
    const commands = [...calls.values()].reduce((sum, value) => sum + value, 0);
    const dispatches = await dispatchCount(redis, prefix);
    const top = [...calls]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([name, value]) => `${name} ${(value / RUNS).toFixed(1)}`)
      .join(', ');
    const row = (name: string, values: number[]) =>
      `| ${name} | ${percentile(values, 0.5).toFixed(0)} | ${percentile(values, 0.99).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`;
    const redisVersion = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim();
    lines.push(
      `Runs: ${RUNS} at once over 2 server processes (4 activations each) on one Redis; polling every ${POLL_MS} ms.`,
      `${redisVersion.split(' ').slice(0, 3).join(' ')}; Node ${process.version}; ${cpus().length} CPUs; load ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' / ')} at the end.`,
      '',
      '| phase | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|',
      row(
        'start → done',
        phases.map((phase) => phase.total),
      ),
      row(
        'POST /v1/runs',
        phases.map((phase) => phase.submit),
      ),
      row(
        'submitted → waiting',
        phases.map((phase) => phase.toWaiting),
      ),
      row(
        'POST decision',
        phases.map((phase) => phase.decide),
      ),
      row(
        'decided → done',
        phases.map((phase) => phase.toDone),
      ),
      '',
      `Wall time ${(wall / 1000).toFixed(1)} s (${((wall / RUNS) * 1).toFixed(1)} ms per run); dispatches ${dispatches} (${(dispatches / RUNS).toFixed(2)} per run); Redis commands ${commands} (${(commands / RUNS).toFixed(0)} per run, polling included; per run: ${top}).`,
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await redis.quit();
    await redisServer.stop();
  }
  const text = lines.join('\n');
  console.log(text);
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, `${text}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
