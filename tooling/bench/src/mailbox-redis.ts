/**
 * Redis mailbox benchmark (the Redis MailboxStore against BullMQ and redis-benchmark): run with `pnpm --filter @awaken/bench bench:mailbox-redis`.
 * Starts its own redis-server (no persistence, loopback) and measures, in one run:
 * (1) enqueue+claim+ack cycles/s of RedisMailboxStore vs BullMQ (Queue.add + Worker, concurrency 50,
 *     no-op jobs) on the same server: a warm-up round of each, then BENCH_ROUNDS interleaved rounds
 *     (the side that goes first alternates); median and spread (see mailbox-redis-cycles.ts);
 * (2) claim/s through the store vs `redis-benchmark` calling the same claim script by EVALSHA, both
 *     with 50 concurrent clients and one claim per call;
 * (3) Redis time (INFO commandstats) per item of each operation, ours and BullMQ's;
 * (5) ack cost with a backlog of 0 / 100 / 1,000 / 10,000 queued dispatches on one thread;
 * (4) Redis memory (INFO used_memory delta) per queued and per finished dispatch, per recorded reply,
 *     and per waiting run record (see mailbox-redis-costs.ts for (3)-(5)).
 * Records `uptime` before and after: the machine's load decides how noisy the rates are.
 * Writes results/mailbox-redis.md.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MAILBOX_LUA, RedisMailboxStore, RedisThreadRunStore } from '@awaken/store-redis';
import { startRedisServer } from '@awaken/testing';
import { usedMemory } from './internal/redis-info';
import {
  type BacklogCost,
  type OpCosts,
  type PhaseCost,
  backlogCost,
  memoryCost,
  operationCosts,
} from './mailbox-redis-costs';
import {
  CONCURRENCY,
  type CycleSample,
  IDLE_WAIT_MS,
  adminClient,
  bullmqRound,
  storeRound,
} from './mailbox-redis-cycles';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 10_000);
const WARMUP_CYCLES = Number(process.env.BENCH_WARMUP_CYCLES ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 50_000);
const MEMORY_ITEMS = 10_000;
const OP_ITEMS = Number(process.env.BENCH_OP_ITEMS ?? 10_000);
const BACKLOGS = [0, 100, 1_000, 10_000];

async function inParallel(workers: number, work: (worker: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: workers }, (_, worker) => work(worker)));
}

/** Items [0, total) split over `workers` loops, each doing its share in order. */
async function spread(total: number, workers: number, each: (index: number) => Promise<void>): Promise<void> {
  await inParallel(workers, async (worker) => {
    for (let index = worker; index < total; index += workers) await each(index);
  });
}

async function enqueueMany(store: RedisMailboxStore, count: number): Promise<void> {
  await spread(count, CONCURRENCY, async (index) => {
    await store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` });
  });
}

async function storeClaims(url: string): Promise<number> {
  const store = new RedisMailboxStore({ redis: url, prefix: 'bench2' });
  await enqueueMany(store, CLAIMS);
  let claimed = 0;
  const started = performance.now();
  await inParallel(CONCURRENCY, async (worker) => {
    while (claimed < CLAIMS) {
      const batch = await store.claim({ workerId: `w${worker}`, limit: 1, leaseMs: 30_000 });
      claimed += batch.length;
      if (batch.length === 0) break;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return claimed / seconds;
}

function redisBenchmarkArgs(port: number): string[] {
  const { sha } = MAILBOX_LUA.claim;
  return [
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-c',
    String(CONCURRENCY),
    '-n',
    String(CLAIMS),
    '-r',
    '1000000000000',
    '--csv',
    'EVALSHA',
    sha,
    '0',
    'bench3:',
    // A fresh request id per call (redis-benchmark fills in a random number), recorded for 120 s as
    // the store's own calls are.
    'req:__rand_int__',
    '120000',
    'w',
    '1',
    '30000',
    'token',
  ];
}

async function redisBenchmarkClaims(url: string, port: number): Promise<number> {
  const store = new RedisMailboxStore({ redis: url, prefix: 'bench3' });
  await enqueueMany(store, CLAIMS);
  await store.redis.script('LOAD', MAILBOX_LUA.claim.source);
  await store.close();
  const output = execFileSync('redis-benchmark', redisBenchmarkArgs(port), { encoding: 'utf8' });
  const row = output.trim().split('\n').at(-1) ?? '';
  const rps = Number(row.split(',')[1]?.replaceAll('"', ''));
  if (!Number.isFinite(rps)) throw new Error(`cannot parse redis-benchmark output:\n${output}`);
  return rps;
}

async function memoryPerWaitingRun(url: string): Promise<number> {
  const store = new RedisThreadRunStore({ redis: url, prefix: 'bench5' });
  await store.createThread({ id: 'thread-1' });
  const before = await usedMemory(store.redis);
  await spread(MEMORY_ITEMS, CONCURRENCY, async (index) => {
    const now = Date.now();
    const run = await store.createRun({
      runId: `run-${index}`,
      threadId: 'thread-1',
      agentId: 'agent',
      origin: 'user',
      status: 'running',
      steps: 1,
      usage: { inputTokens: 120, outputTokens: 40, totalTokens: 160 },
      state: {},
      version: 0,
      createdAt: now,
      updatedAt: now,
    });
    await store.commitCheckpoint({
      trigger: 'tool_results_committed',
      threadId: 'thread-1',
      expectedMessageCount: 0,
      messages: [],
      run: {
        ...run,
        status: 'waiting',
        version: 1,
        updatedAt: now,
        waiting: {
          reason: 'tool_call_suspended',
          ticketIds: ['ticket-1'],
          message: 'approve?',
          tickets: [
            {
              ticketId: 'ticket-1',
              toolCallId: 'call-1',
              toolName: 'write_file',
              action: 'confirm',
              message: 'Allow write_file?',
              arguments: { path: 'notes.txt' },
              resumeMode: 'replay_tool_call',
            },
          ],
        },
      },
    });
  });
  const after = await usedMemory(store.redis);
  await store.close();
  return (after - before) / MEMORY_ITEMS;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const spreadOf = (values: readonly number[], digits = 0) =>
  `${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)}`;

interface CycleResults {
  ours: CycleSample[];
  bull: CycleSample[];
}

async function cycleRounds(url: string, port: number): Promise<CycleResults> {
  const admin = adminClient(url);
  try {
    await storeRound(url, admin, WARMUP_CYCLES);
    await bullmqRound(port, admin, WARMUP_CYCLES);
    const results: CycleResults = { ours: [], bull: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const runOurs = async () => results.ours.push(await storeRound(url, admin, CYCLES));
      const runBull = async () => results.bull.push(await bullmqRound(port, admin, CYCLES));
      if (round % 2 === 0) {
        await runOurs();
        await runBull();
      } else {
        await runBull();
        await runOurs();
      }
      const [ours, bull] = [results.ours[round], results.bull[round]];
      process.stdout.write(
        `round ${round + 1}: store ${fixed(ours?.rate ?? 0)}/s, BullMQ ${fixed(bull?.rate ?? 0)}/s\n`,
      );
    }
    return results;
  } finally {
    await admin.quit();
  }
}

function cycleTable({ ours, bull }: CycleResults): string {
  const ratios = ours.map((sample, index) => sample.rate / (bull[index]?.rate ?? Number.NaN));
  const cpu = (sample: CycleSample | undefined) =>
    `${fixed(sample?.nodeCpuUs ?? 0)} / ${fixed(sample?.redisCpuUs ?? 0)} / ${fixed(sample?.redisCommandUs ?? 0)}`;
  const rows = ours.map((sample, index) => {
    const other = bull[index];
    return `| ${index + 1} | ${fixed(sample.rate)} | ${fixed(other?.rate ?? 0)} | ${fixed(ratios[index] ?? 0, 2)}x | ${cpu(sample)} | ${cpu(other)} | ${fixed(sample.commandsPerItem, 2)} / ${fixed(other?.commandsPerItem ?? 0, 2)} | ${fixed(sample.claimsPerItem ?? 0, 2)} |`;
  });
  const rates = (samples: CycleSample[]) => samples.map((sample) => sample.rate);
  const med = (samples: CycleSample[], pick: (sample: CycleSample) => number) =>
    fixed(median(samples.map(pick)));
  return [
    '| round | store cycles/s | BullMQ jobs/s | ratio | store µs/item: Node CPU / Redis CPU / Redis in commands | BullMQ µs/item: same | commands/item, store / BullMQ | store claim calls/item |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '| (1) summary | value | target |',
    '|---|---|---|',
    `| store cycles/s, median (min–max) | ${fixed(median(rates(ours)))} (${spreadOf(rates(ours))}) | |`,
    `| BullMQ jobs/s, median (min–max) | ${fixed(median(rates(bull)))} (${spreadOf(rates(bull))}) | |`,
    `| ratio of medians | **${fixed(median(rates(ours)) / median(rates(bull)), 2)}x** | >= 2x |`,
    `| per-round ratio, median (min–max) | ${fixed(median(ratios), 2)}x (${spreadOf(ratios, 2)}x) | |`,
    `| Node CPU µs per item, median | store ${med(ours, (s) => s.nodeCpuUs)}, BullMQ ${med(bull, (s) => s.nodeCpuUs)} | |`,
    `| Redis CPU µs per item, median | store ${med(ours, (s) => s.redisCpuUs)}, BullMQ ${med(bull, (s) => s.redisCpuUs)} | |`,
    `| Redis time in commands µs per item, median | store ${med(ours, (s) => s.redisCommandUs)}, BullMQ ${med(bull, (s) => s.redisCommandUs)} | |`,
  ].join('\n');
}

function opTable({ ours, bull }: OpCosts): string {
  const row = (name: string, cost: PhaseCost) =>
    `| ${name} | ${fixed(cost.usPerItem, 1)} | ${fixed(cost.callsPerItem, 2)} | ${fixed(cost.innerPerItem, 1)} |`;
  const sum = (costs: PhaseCost[]): PhaseCost => ({
    usPerItem: costs.reduce((total, cost) => total + cost.usPerItem, 0),
    callsPerItem: costs.reduce((total, cost) => total + cost.callsPerItem, 0),
    innerPerItem: costs.reduce((total, cost) => total + cost.innerPerItem, 0),
  });
  return [
    '| operation | Redis µs per item | calls per item | commands inside scripts per item |',
    '|---|---|---|---|',
    row('store enqueue', ours.enqueue),
    row('store claim (limit 50)', ours.claim),
    row('store ack', ours.ack),
    row('**store total**', sum([ours.enqueue, ours.claim, ours.ack])),
    row('BullMQ add', bull.add),
    row('BullMQ Worker (fetch + complete)', bull.work),
    row('**BullMQ total**', sum([bull.add, bull.work])),
  ].join('\n');
}

function backlogTable(costs: BacklogCost[]): string {
  const base = costs.find((cost) => cost.backlog === 0)?.ackUs ?? Number.NaN;
  return [
    '| queued dispatches behind the claimed one | ack, Redis µs | ack vs no backlog | next claim, Redis µs |',
    '|---|---|---|---|',
    ...costs.map(
      (cost) =>
        `| ${cost.backlog} | ${fixed(cost.ackUs)} | ${fixed(cost.ackUs / base, 2)}x | ${fixed(cost.claimUs)} |`,
    ),
  ].join('\n');
}

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

async function main(): Promise<void> {
  const loadBefore = uptime();
  const server = await startRedisServer();
  try {
    const cycles = await cycleRounds(server.url, server.port);
    const admin = adminClient(server.url);
    let ops: OpCosts;
    const backlogs: BacklogCost[] = [];
    let memory: Awaited<ReturnType<typeof memoryCost>>;
    try {
      ops = await operationCosts(server.url, server.port, admin, OP_ITEMS);
      for (const backlog of BACKLOGS) backlogs.push(await backlogCost(server.url, admin, backlog));
      memory = await memoryCost(server.url, admin, MEMORY_ITEMS);
    } finally {
      await admin.quit();
    }
    const claims = await storeClaims(server.url);
    const benchmark = await redisBenchmarkClaims(server.url, server.port);
    const perRun = await memoryPerWaitingRun(server.url);
    const version = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim();
    const loadAfter = uptime();
    const table = [
      '| measure | value | target |',
      '|---|---|---|',
      `| (2) store claims/s (50 concurrent, limit 1) | ${claims.toFixed(0)} | |`,
      `| (2) redis-benchmark EVALSHA claim/s (-c 50) | ${benchmark.toFixed(0)} | |`,
      `| (2) ratio store / redis-benchmark | **${(claims / benchmark).toFixed(2)}x** | >= 0.7x |`,
      `| (4) memory per queued dispatch | ${memory.queued.toFixed(0)} B | |`,
      `| (4) memory per finished (acked, not yet purged) dispatch | ${memory.finished.toFixed(0)} B | |`,
      `| (4) recorded replies per dispatch (enqueue + claim + ack, kept requestTtlMs) | ${memory.recordedReplies.toFixed(0)} B | |`,
      `| (4) memory per waiting run record | ${perRun.toFixed(0)} B | |`,
    ].join('\n');
    const report = `# Redis mailbox benchmark

Command: \`pnpm --filter @awaken/bench bench:mailbox-redis\` (tooling/bench/src/mailbox-redis.ts,
mailbox-redis-cycles.ts, mailbox-redis-costs.ts).
Setup: ${version}; a dedicated redis-server started by the benchmark (loopback, no persistence);
Node ${process.version}; ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}).
Load: \`uptime\` before the run: \`${loadBefore}\`; after: \`${loadAfter}\` (Node, Redis and
anything else running share these CPUs, so absolute rates are noisy: compare the per-round ratios).
(1) ${ROUNDS} interleaved rounds of ${CYCLES} items per side after a ${WARMUP_CYCLES}-item warm-up of each;
(2) ${CLAIMS} claims; (3) ${OP_ITEMS} items per operation; (4) ${MEMORY_ITEMS} items.

## (1) enqueue+claim+ack cycles/s vs BullMQ

${cycleTable(cycles)}

How each side runs (same Redis, flushed before every round; same process; producer and consumer on
their own connections, connected before the clock starts; clock from the first add to the last
completion; finished records kept on both sides):
- producers: 50 loops, each adding its share one item at a time (\`store.enqueue\` / \`queue.add\`).
- BullMQ consumer: \`new Worker(name, async () => undefined, { connection, concurrency: 50 })\`, default
  options otherwise (it fetches the next job in the same script call that completes one, and blocks on
  a marker when idle).
- store consumer: one worker loop that keeps up to 50 dispatches in flight, as a real consumer would:
  \`claim({ workerId, limit: <free slots>, leaseMs: 30_000 })\`, then for each dispatch a no-op
  handler followed by its own \`ack\`; when a claim comes back empty it blocks in
  \`waitForWork({ timeoutMs: ${IDLE_WAIT_MS} })\` (BLPOP on the store's wake-up marker list, which
  enqueue pushes to) and claims again. "claim calls/item" counts those claims.
- µs/item: Node \`process.cpuUsage()\`, Redis INFO \`used_cpu_user + used_cpu_sys\` (the whole server
  process: commands, network, event loop) and the \`usec\` of INFO commandstats for the commands
  clients issue (script calls including their inner commands, blocking pops) over the round;
  commands/item: those commands' \`calls\` (round trips to Redis).

## (3) Redis time per item per operation

${opTable(ops)}

Each operation on its own for ${OP_ITEMS} items on a flushed server, from INFO commandstats before and
after the phase: Redis µs = \`usec\` of the commands clients issue (script calls, whose time includes
the commands they run, and blocking pops), calls = their \`calls\`, and the \`calls\` of every other
command, which ran inside scripts: ours enqueues from 50 loops, claims
with \`limit: 50\` until all are claimed, then acks from 50 loops; BullMQ adds from 50 loops, then a
Worker (concurrency 50) fetches and completes them all.

## (5) ack cost with a backlog on one thread

${backlogTable(backlogs)}

One thread holds the claimed dispatch plus N queued ones; ${'`'}claim({ limit: 1 })${'`'} then \`ack\`, 21 cycles,
median of the Redis time (commandstats \`usec\`) of each command. Target: flat, within 2x of no backlog.

## (2) claim throughput and (4) memory

${table}

Notes:
- (2) redis-benchmark runs \`redis-benchmark ${redisBenchmarkArgs(0).slice(2).join(' ').replace('-p 0 ', '')}\`
  (the claim script, one claim per call, on ${CLAIMS} queued dispatches); our side runs 50 loops of
  \`claim({ limit: 1 })\` through ioredis on one connection, including decoding and validation.
- (4) INFO \`used_memory\` deltas over ${MEMORY_ITEMS} dispatches on their own threads: enqueued
  (dispatch + indexes), then claimed and acked (the finished record kept until \`purgeTerminal\`);
  the replies recorded for re-sent requests are measured apart (deleted, then measured again);
  and over ${MEMORY_ITEMS} run records checkpointed to \`waiting\` (JSON + index entries + recorded replies).
`;
    const out = fileURLToPath(new URL('../results/mailbox-redis.md', import.meta.url));
    writeFileSync(out, report);
    process.stdout.write(`${report}\n`);
  } finally {
    await server.stop();
  }
}

await main();
