/**
 * Approve-burst benchmark (issue 38: "2,000 runs created and approved at once by two processes: p99
 * 49 s on Redis"; issue 37: the same on PostgreSQL beside Redis): `pnpm --filter @awaken/bench
 * bench:approve-burst`. For each backend of BENCH_BACKENDS (default `redis`; `redis,postgres` for
 * both) it starts its own server (redis-server without persistence, or a PostgreSQL in a temp dir)
 * and two server processes (the HTTP API over a mailbox service, 4 activations each, one Redis prefix
 * or PostgreSQL schema). BENCH_RUNS runs (default 300), alternating between the two servers:
 * `POST /v1/runs` (`stream: false`, one approval-gated call), polling `GET /v1/runs/:id` every
 * BENCH_POLL_MS (default 100) ms until it waits, the decision through the *other* server, polling
 * until it is done.
 *
 * BENCH_MODE=burst (default): every run starts at once and is approved as soon as it waits; reports
 * start → done. BENCH_MODE=approve: every run is started and waits first; then all decisions are
 * sent at once; reports decision → done (the burst of approvals alone) and the wall time of that phase.
 *
 * Also per run: each phase's p50/p99, the store's work (Redis commands from INFO commandstats;
 * PostgreSQL transactions from pg_stat_database) and dispatches. BENCH_CPU_PROF=<dir> runs the
 * servers with `--cpu-prof` into that directory. Prints markdown; BENCH_OUT=<file> writes it too.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type BurstBackend, startPostgresBackend, startRedisBackend } from './approve-burst/burst-backends';
import { percentile } from './internal/stats';
import { startChildServer } from './server-http/child-server';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 100);
const MODE = process.env.BENCH_MODE === 'approve' ? 'approve' : 'burst';
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'redis').split(',').map((name) => name.trim());
const SERVE = fileURLToPath(new URL('./approve-burst/serve.ts', import.meta.url));

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

/** Starts one run on `servers[index % 2]` and resolves when it waits: its id, ticket and timings. */
async function startWaiting(
  servers: string[],
  index: number,
): Promise<{ runId: string; ticketId: string; submit: number; toWaiting: number; started: number }> {
  const home = servers[index % servers.length] as string;
  const started = performance.now();
  const submitted = await call(`${home}/v1/runs`, {
    body: { agentId: 'bench', input: 'approve', stream: false },
  });
  if (submitted.status !== 202)
    throw new Error(`submit: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  const { runId } = submitted.body as { runId: string };
  const afterSubmit = performance.now();
  const waiting = await until(`${home}/v1/runs/${runId}`, 'waiting');
  return {
    runId,
    ticketId: waiting.waiting.tickets[0].ticketId,
    submit: afterSubmit - started,
    toWaiting: performance.now() - afterSubmit,
    started,
  };
}

/** Approves a waiting run through the server that did not start it; resolves when the run is done. */
async function approve(
  servers: string[],
  index: number,
  run: { runId: string; ticketId: string },
): Promise<{ decide: number; toDone: number }> {
  const other = servers[(index + 1) % servers.length] as string;
  const before = performance.now();
  const decided = await call(`${other}/v1/runs/${run.runId}/decision`, {
    body: { ticketId: run.ticketId, result: { approved: true } },
  });
  if (decided.status !== 200) throw new Error(`decide: ${decided.status} ${JSON.stringify(decided.body)}`);
  const afterDecide = performance.now();
  await until(`${other}/v1/runs/${run.runId}`, 'done');
  return { decide: afterDecide - before, toDone: performance.now() - afterDecide };
}

/** One backend's burst: the phases of every run and the wall time of the timed part. */
async function burst(servers: string[]): Promise<{ phases: Phases[]; wall: number; prepare?: number }> {
  const indexes = Array.from({ length: RUNS }, (_, index) => index);
  if (MODE === 'burst') {
    const started = performance.now();
    const phases = await Promise.all(
      indexes.map(async (index) => {
        const run = await startWaiting(servers, index);
        const decided = await approve(servers, index, run);
        return { ...run, ...decided, total: performance.now() - run.started };
      }),
    );
    return { phases, wall: performance.now() - started };
  }
  const preparing = performance.now();
  const waiting = await Promise.all(indexes.map((index) => startWaiting(servers, index)));
  const started = performance.now();
  const phases = await Promise.all(
    waiting.map(async (run, index) => {
      const decided = await approve(servers, index, run);
      return { ...run, ...decided, total: decided.decide + decided.toDone };
    }),
  );
  return { phases, wall: performance.now() - started, prepare: started - preparing };
}

const percentiles = (values: number[]) =>
  `${percentile(values, 0.5).toFixed(0)} | ${percentile(values, 0.99).toFixed(0)} | ${Math.max(...values).toFixed(0)}`;

async function runBackend(
  backend: BurstBackend,
  lines: string[],
): Promise<{ name: string; p50: number; p99: number; wall: number }> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const job = JSON.stringify(backend.job(4));
  const servers = await Promise.all([1, 2].map(() => startChildServer([job], { script: SERVE, nodeArgs })));
  try {
    await backend.resetStats();
    const { phases, wall, prepare } = await burst(servers.map((server) => server.url));
    const cost = await backend.cost(RUNS);
    const dispatches = await backend.dispatches();
    const totals = phases.map((phase) => phase.total);
    const headline = MODE === 'burst' ? 'start → done' : 'decision sent → done';
    lines.push(
      `### ${backend.name} (${backend.version})`,
      '',
      '| phase | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|',
      `| **${headline}** | ${percentiles(totals)} |`,
      `| POST /v1/runs | ${percentiles(phases.map((phase) => phase.submit))} |`,
      `| submitted → waiting | ${percentiles(phases.map((phase) => phase.toWaiting))} |`,
      `| POST decision | ${percentiles(phases.map((phase) => phase.decide))} |`,
      `| decided → done | ${percentiles(phases.map((phase) => phase.toDone))} |`,
      '',
      `${MODE === 'approve' ? `Every run waiting after ${((prepare ?? 0) / 1000).toFixed(1)} s; the approvals took` : 'Wall time'} ${(wall / 1000).toFixed(1)} s (${(wall / RUNS).toFixed(1)} ms per run); dispatches ${dispatches} (${(dispatches / RUNS).toFixed(2)} per run); ${cost}.`,
      '',
    );
    return { name: backend.name, p50: percentile(totals, 0.5), p99: percentile(totals, 0.99), wall };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

async function main(): Promise<void> {
  const lines: string[] = [
    `Runs: ${RUNS} over 2 server processes (4 activations each) per backend; polling every ${POLL_MS} ms; mode ${MODE}.`,
    `Node ${process.version}; ${cpus().length} CPUs.`,
    '',
  ];
  const summary: { name: string; p50: number; p99: number; wall: number }[] = [];
  for (const name of BACKENDS) {
    if (name !== 'redis' && name !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${name}`);
    const backend = name === 'redis' ? await startRedisBackend() : await startPostgresBackend();
    try {
      summary.push(await runBackend(backend, lines));
    } finally {
      await backend.stop();
    }
    lines.push(
      `(load ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' / ')} after ${name})`,
      '',
    );
  }
  const base = summary[0];
  if (base && summary.length > 1) {
    lines.push(
      '| backend | p50 ms | p99 ms | wall s | p50 ÷ ' + base.name + ' | p99 ÷ ' + base.name + ' |',
      '|---|---|---|---|---|---|',
    );
    for (const row of summary)
      lines.push(
        `| ${row.name} | ${row.p50.toFixed(0)} | ${row.p99.toFixed(0)} | ${(row.wall / 1000).toFixed(1)} | ${(row.p50 / base.p50).toFixed(2)}× | ${(row.p99 / base.p99).toFixed(2)}× |`,
      );
  }
  const text = lines.join('\n');
  console.log(text);
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, `${text}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
