/**
 * A durable useChat turn against a bare AI SDK route: `pnpm --filter @awaken/bench bench:chat-turn`.
 * The same "weather in Paris" turn (one tool call, then the answer; see chat-turn/weather-model.ts)
 * served by (a) a Hono route running ai@6 `streamText` + `toUIMessageStreamResponse()` and (b) the
 * Awaken `/v1/ai-sdk/agents/:agentId/chat` route over memory stores, over Redis and over PostgreSQL,
 * each in its own process on loopback, this process the client (keep-alive node:http, a new chat per
 * request).
 * (1) Redis cost of one turn at concurrency 1: commands (INFO commandstats deltas: client-issued
 *     and inside scripts) and round trips (chunks written by the server's connections, counted by a
 *     TCP proxy in front of Redis, idle background subtracted);
 * (1b) PostgreSQL cost of one turn at concurrency 1: round trips (ReadyForQuery), statements and
 *     explicit COMMITs counted by a proxy in front of PostgreSQL (idle background subtracted), all
 *     committed transactions (pg_stat_database), and the statements pg_stat_statements saw per turn;
 * (2) requests/s and p50/p99 latency at concurrency 1 / 8 / 32, interleaved rounds (the order of the
 *     servers rotates every round), ratios to the bare route;
 * (3) with BENCH_PROFILE=1, the top self-time entries of the Redis server's CPU profile under load
 *     at concurrency 8.
 * Environment: BENCH_ONLY=cost (only (1) and (1b), printed), BENCH_BACKENDS (default
 * bare,memory,redis,postgres), BENCH_WARMUP (turns per server before the rounds, default 200), BENCH_REQUESTS (per cell, default 300), BENCH_ROUNDS (default 3), BENCH_RT_TURNS
 * (default 40), BENCH_LABEL (results/chat-turn-<label>.md; default results/chat-turn.md).
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresServer, startRedisServer } from '@awaken/testing';
import pg from 'pg';
import { Redis } from 'ioredis';
import { chatTurn, load } from './chat-turn/chat-client';
import { startCountingProxy } from './chat-turn/counting-proxy';
import { topSelfTime } from './internal/cpu-profile';
import { startPgCountingProxy } from './internal/pg-counting-proxy';
import { commandTotals } from './internal/redis-info';
import { median, percentile } from './internal/stats';
import { type ChildServer, startChildServer } from './server-http/child-server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RT_TURNS = Number(process.env.BENCH_RT_TURNS ?? 40);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
/** The BENCH_ variables this run was given, as a command prefix. */
const ENV_SET = Object.entries(process.env)
  .filter(([name]) => name.startsWith('BENCH_') && name !== 'BENCH_PROFILE')
  .map(([name, value]) => `${name}=${value} `)
  .join('');
const PROFILE = process.env.BENCH_PROFILE === '1';
const LABEL = process.env.BENCH_LABEL;
const CONCURRENCY = [1, 8, 32];
const SERVE = fileURLToPath(new URL('./chat-turn/serve.ts', import.meta.url));
const AWAKEN_PATH = '/v1/ai-sdk/agents/weather/chat';

const start = (args: string[], nodeArgs?: string[]) =>
  startChildServer(args, { script: SERVE, ...(nodeArgs ? { nodeArgs } : {}) });

async function sequential(server: ChildServer, path: string, turns: number): Promise<void> {
  const base = new URL(server.url);
  for (let index = 0; index < turns; index += 1) await chatTurn(base, path);
}

interface TurnCost {
  roundTrips: number;
  clientCommands: number;
  innerCommands: number;
  byCommand: Array<[string, number]>;
  connections: number;
}

async function redisTurnCost(redisUrl: string, admin: Redis): Promise<TurnCost> {
  const { hostname, port } = new URL(redisUrl);
  const proxy = await startCountingProxy({ host: hostname, port: Number(port) });
  const server = await start(['awaken-redis', proxy.url]);
  try {
    await sequential(server, AWAKEN_PATH, 10);
    // the idle background (blocking reads re-sent every few seconds) over one second
    const idleFrom = proxy.writes;
    const idleStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idlePerMs = (proxy.writes - idleFrom) / (performance.now() - idleStart);
    const before = await commandTotals(admin);
    const writesBefore = proxy.writes;
    const began = performance.now();
    await sequential(server, AWAKEN_PATH, RT_TURNS);
    const elapsed = performance.now() - began;
    const writes = proxy.writes - writesBefore - idlePerMs * elapsed;
    const after = await commandTotals(admin);
    const byCommand = [...after.byCommand]
      .map(([name, { calls }]): [string, number] => [
        name,
        (calls - (before.byCommand.get(name)?.calls ?? 0)) / RT_TURNS,
      ])
      .filter(([, perTurn]) => perTurn >= 0.5)
      .sort((a, b) => b[1] - a[1]);
    return {
      roundTrips: writes / RT_TURNS,
      clientCommands: (after.calls - before.calls) / RT_TURNS,
      innerCommands: (after.inner - before.inner) / RT_TURNS,
      byCommand,
      connections: proxy.connections,
    };
  } finally {
    await server.stop();
    await proxy.close();
  }
}

interface PgTurnCost {
  roundTrips: number;
  statements: number;
  commits: number;
  transactions: number;
  /** pg_stat_statements: calls per turn and mean ms of each statement seen at least once a turn. */
  top: Array<{ query: string; calls: number; meanMs: number }>;
}

async function pgTurnCost(postgresUrl: string, admin: pg.Pool): Promise<PgTurnCost> {
  const proxy = await startPgCountingProxy(postgresUrl);
  const server = await start(['awaken-postgres', proxy.url]);
  const xacts = async () =>
    Number(
      (await admin.query(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`))
        .rows[0].xact_commit,
    );
  const snapshot = () => ({ ...proxy.counts });
  try {
    await sequential(server, AWAKEN_PATH, 10);
    // the idle background (LISTEN polls) over one second
    const idleFrom = snapshot();
    const idleStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleMs = performance.now() - idleStart;
    const idle = snapshot();
    const perMs = (key: 'roundTrips' | 'statements' | 'commits') => (idle[key] - idleFrom[key]) / idleMs;
    await admin.query('SELECT pg_stat_statements_reset()');
    await admin.query('SELECT pg_stat_clear_snapshot()');
    const xactsBefore = await xacts();
    const before = snapshot();
    const began = performance.now();
    await sequential(server, AWAKEN_PATH, RT_TURNS);
    const elapsed = performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve, 600)); // the stats collector's flush
    await admin.query('SELECT pg_stat_clear_snapshot()');
    const after = snapshot();
    const per = (key: 'roundTrips' | 'statements' | 'commits') =>
      (after[key] - before[key] - perMs(key) * elapsed) / RT_TURNS;
    const top = (
      await admin.query<{ query: string; calls: string; mean: number }>(
        `SELECT query, calls, mean_exec_time AS mean FROM pg_stat_statements
         WHERE query NOT LIKE '%pg_stat%' AND calls >= $1 ORDER BY calls DESC LIMIT 25`,
        [RT_TURNS / 2],
      )
    ).rows.map((row) => ({
      query: row.query.replace(/\s+/g, ' ').slice(0, 110),
      calls: Number(row.calls) / RT_TURNS,
      meanMs: row.mean,
    }));
    return {
      roundTrips: per('roundTrips'),
      statements: per('statements'),
      commits: per('commits'),
      // every committed transaction (implicit ones included), the admin's own reads subtracted
      transactions: ((await xacts()) - xactsBefore - 3) / RT_TURNS,
      top,
    };
  } finally {
    await server.stop();
    await proxy.close();
  }
}

type Backend = 'bare' | 'memory' | 'redis' | 'postgres';
const BACKENDS: Backend[] = (process.env.BENCH_BACKENDS ?? 'bare,memory,redis,postgres')
  .split(',')
  .map((name) => name.trim() as Backend);
const LABELS: Record<Backend, string> = {
  bare: 'bare ai@6 streamText route (Hono)',
  memory: 'Awaken useChat backend, memory stores',
  redis: 'Awaken useChat backend, Redis stores',
  postgres: 'Awaken useChat backend, PostgreSQL stores',
};

async function throughput(servers: Record<Backend, ChildServer>) {
  const pathOf = (backend: Backend) => (backend === 'bare' ? '/api/chat' : AWAKEN_PATH);
  for (const backend of BACKENDS) await load(new URL(servers[backend].url), pathOf(backend), 8, WARMUP);
  const cells = new Map<string, { rps: number[]; latencies: number[] }>();
  const perRound = Math.max(1, Math.round(REQUESTS / ROUNDS));
  for (const concurrency of CONCURRENCY) {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let offset = 0; offset < BACKENDS.length; offset += 1) {
        const backend = BACKENDS[(round + offset) % BACKENDS.length] as Backend;
        const result = await load(new URL(servers[backend].url), pathOf(backend), concurrency, perRound);
        progress(`${backend} c=${concurrency} round ${round}: ${f0(result.rps)} req/s`);
        const key = `${backend}/${concurrency}`;
        const cell = cells.get(key) ?? { rps: [], latencies: [] };
        cell.rps.push(result.rps);
        cell.latencies.push(...result.latencies);
        cells.set(key, cell);
      }
    }
  }
  return cells;
}

async function profile(redisUrl: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'awaken-chat-prof-'));
  const server = await start(['awaken-redis', redisUrl], ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await load(new URL(server.url), AWAKEN_PATH, 8, 100);
  await load(new URL(server.url), AWAKEN_PATH, 8, REQUESTS);
  await server.stop();
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return ['(no profile written)'];
  return [
    '| self time | function | where |',
    '|---:|---|---|',
    ...topSelfTime(join(dir, file), 25).map(
      ({ name, where, share }) => `| ${(share * 100).toFixed(1)}% | \`${name}\` | ${where} |`,
    ),
  ];
}

const progress = (line: string) => process.stderr.write(`${line}\n`);
const f0 = (value: number) => Math.round(value).toLocaleString('en-US');
const f1 = (value: number) => value.toFixed(1);

async function main(): Promise<void> {
  const redis = await startRedisServer();
  const postgres = await startPostgresServer({
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' },
  });
  const admin = new Redis(redis.url);
  const pgAdmin = new pg.Pool({ connectionString: postgres.url, max: 2 });
  await pgAdmin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const servers = {} as Record<Backend, ChildServer>;
  try {
    const cost = await redisTurnCost(redis.url, admin);
    progress(`round trips per turn: ${f1(cost.roundTrips)}`);
    const pgCost = await pgTurnCost(postgres.url, pgAdmin);
    progress(
      `postgres per turn: ${f1(pgCost.roundTrips)} round trips, ${f1(pgCost.statements)} statements, ${f1(pgCost.commits)} COMMITs, ${f1(pgCost.transactions)} transactions`,
    );
    if (process.env.BENCH_ONLY === 'cost') {
      progress(cost.byCommand.map(([name, perTurn]) => `${name} ${f1(perTurn)}`).join(', '));
      for (const row of pgCost.top) progress(`${f1(row.calls)} × ${row.meanMs.toFixed(3)} ms  ${row.query}`);
      return;
    }
    const urls: Record<Backend, string[]> = {
      bare: ['bare'],
      memory: ['awaken-memory'],
      redis: ['awaken-redis', redis.url],
      postgres: ['awaken-postgres', postgres.url],
    };
    for (const backend of BACKENDS) servers[backend] = await start(urls[backend]);
    const cells = await throughput(servers);
    await Promise.all(BACKENDS.map((backend) => servers[backend].stop()));
    const profiled = PROFILE ? await profile(redis.url) : [];
    const rows: string[] = [];
    const ratio = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`;
    for (const concurrency of CONCURRENCY) {
      const bare = cells.get(`bare/${concurrency}`);
      const onRedis = cells.get(`redis/${concurrency}`);
      for (const backend of BACKENDS) {
        const cell = cells.get(`${backend}/${concurrency}`);
        if (!cell) continue;
        const rps = median(cell.rps);
        const p50 = percentile(cell.latencies, 0.5);
        rows.push(
          `| ${concurrency} | ${LABELS[backend]} | ${f0(rps)} | ${ratio(rps, bare && median(bare.rps))} | ${backend === 'postgres' ? ratio(rps, onRedis && median(onRedis.rps)) : ''} | ${p50.toFixed(2)} | ${ratio(p50, bare && percentile(bare.latencies, 0.5))} | ${percentile(cell.latencies, 0.99).toFixed(2)} | ${cell.rps.map(f0).join(' / ')} |`,
        );
      }
    }
    const lines = [
      `# A useChat turn: Awaken against a bare AI SDK route${LABEL ? ` (${LABEL})` : ''}`,
      '',
      `Command (from the repository root): \`${ENV_SET}pnpm --filter @awaken/bench bench:chat-turn\` (\`BENCH_PROFILE=1\` adds the CPU profile).`,
      '',
      `Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length} (shared with other jobs), load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' / ')} at the end. Measured ${new Date().toISOString().slice(0, 16)}Z.`,
      '',
      `## Redis cost of one turn (${RT_TURNS} sequential turns, after 10 warm-up turns)`,
      '',
      '| round trips | client-issued commands (a script call counts once) | commands inside scripts | all commands |',
      '|---:|---:|---:|---:|',
      `| ${f1(cost.roundTrips)} | ${f1(cost.clientCommands)} | ${f1(cost.innerCommands)} | ${f1(cost.clientCommands + cost.innerCommands)} |`,
      '',
      `Commands per turn by name (INFO commandstats; ≥ 0.5 per turn): ${cost.byCommand.map(([name, perTurn]) => `${name} ${f1(perTurn)}`).join(', ')}. Redis connections the server opened: ${cost.connections}.`,
      '',
      `## PostgreSQL cost of one turn (${RT_TURNS} sequential turns, after 10 warm-up turns; counted by a proxy)`,
      '',
      '| round trips | statements | explicit COMMITs | committed transactions (pg_stat_database) |',
      '|---:|---:|---:|---:|',
      `| ${f1(pgCost.roundTrips)} | ${f1(pgCost.statements)} | ${f1(pgCost.commits)} | ${f1(pgCost.transactions)} |`,
      '',
      'Statements per turn (pg_stat_statements, `track = all`: statements inside functions too; those run at least every other turn):',
      '',
      '| calls per turn | mean ms | statement |',
      '|---:|---:|---|',
      ...pgCost.top.map(
        (row) => `| ${f1(row.calls)} | ${row.meanMs.toFixed(3)} | \`${row.query.replaceAll('|', '\\|')}\` |`,
      ),
      '',
      `## Requests per second and latency (${REQUESTS} requests per cell in ${ROUNDS} interleaved rounds after ${WARMUP} warm-up turns per server; rps is the median of the rounds)`,
      '',
      '| concurrency | server | req/s | ratio to bare | PostgreSQL / Redis | p50 (ms) | p50 ratio | p99 (ms) | req/s of each round |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---|',
      ...rows,
      '',
      ...(PROFILE
        ? [
            `## CPU profile of the Redis server under load (concurrency 8, ${REQUESTS} requests; top self time)`,
            '',
            ...profiled,
            '',
          ]
        : []),
    ];
    const out = fileURLToPath(new URL(`../results/chat-turn${LABEL ? `-${LABEL}` : ''}.md`, import.meta.url));
    writeFileSync(out, lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    admin.disconnect();
    await pgAdmin.end();
    await redis.stop();
    await postgres.stop();
  }
}

await main();
