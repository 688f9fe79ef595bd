/**
 * Redis mailbox benchmark (issue 6): run with `pnpm --filter @awaken/bench bench:mailbox-redis`.
 * Starts its own redis-server (no persistence, loopback) and measures, in one run:
 * (1) enqueue+claim+ack cycles/s of RedisMailboxStore vs BullMQ (Queue.add + Worker, concurrency 50,
 *     no-op jobs), both keeping finished records (no purge / removeOnComplete);
 * (2) claim/s through the store vs `redis-benchmark` calling the same claim script by EVALSHA, both
 *     with 50 concurrent clients and one claim per call;
 * (4) Redis memory (INFO used_memory delta) per queued dispatch and per waiting run record.
 * Writes results/mailbox-redis.md.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MAILBOX_LUA, RedisMailboxStore, RedisThreadRunStore } from '@awaken/store-redis';
import { startRedisServer } from '@awaken/testing';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

const CONCURRENCY = 50;
const CYCLES = Number(process.env.BENCH_CYCLES ?? 20_000);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 50_000);
const MEMORY_ITEMS = 10_000;
/** How long an idle consumer waits before claiming again (a worker polls; BullMQ blocks on a marker). */
const IDLE_POLL_MS = Number(process.env.BENCH_IDLE_POLL_MS ?? 2);

async function inParallel(workers: number, work: (worker: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: workers }, (_, worker) => work(worker)));
}

/** Items [0, total) split over `workers` loops, each doing its share in order. */
async function spread(total: number, workers: number, each: (index: number) => Promise<void>): Promise<void> {
  await inParallel(workers, async (worker) => {
    for (let index = worker; index < total; index += workers) await each(index);
  });
}

async function storeCycles(url: string): Promise<number> {
  const store = new RedisMailboxStore({ redis: url, prefix: 'bench1' });
  let acked = 0;
  const started = performance.now();
  const producers = spread(CYCLES, CONCURRENCY, async (index) => {
    await store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` });
  });
  const consumers = inParallel(CONCURRENCY, async (worker) => {
    while (acked < CYCLES) {
      const [dispatch] = await store.claim({ workerId: `w${worker}`, limit: 1, leaseMs: 30_000 });
      if (!dispatch) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        continue;
      }
      await store.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
      acked += 1;
    }
  });
  await Promise.all([producers, consumers]);
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return CYCLES / seconds;
}

async function bullmqCycles(port: number): Promise<number> {
  const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
  const queue = new Queue('bench', { connection });
  let completed = 0;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  const started = performance.now();
  const worker = new Worker('bench', async () => undefined, { connection, concurrency: CONCURRENCY });
  worker.on('completed', () => {
    completed += 1;
    if (completed === CYCLES) resolveDone();
  });
  await spread(CYCLES, CONCURRENCY, async (index) => {
    await queue.add('job', { index });
  });
  await done;
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  await queue.close();
  return CYCLES / seconds;
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
    '--csv',
    'EVALSHA',
    sha,
    '0',
    'bench3:',
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

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1]);
}

async function memoryPerDispatch(url: string): Promise<number> {
  const store = new RedisMailboxStore({ redis: url, prefix: 'bench4' });
  const before = await usedMemory(store.redis);
  await enqueueMany(store, MEMORY_ITEMS);
  const after = await usedMemory(store.redis);
  await store.close();
  return (after - before) / MEMORY_ITEMS;
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

async function main(): Promise<void> {
  const server = await startRedisServer();
  try {
    const ours = await storeCycles(server.url);
    const bull = await bullmqCycles(server.port);
    const claims = await storeClaims(server.url);
    const benchmark = await redisBenchmarkClaims(server.url, server.port);
    const perDispatch = await memoryPerDispatch(server.url);
    const perRun = await memoryPerWaitingRun(server.url);
    const version = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim();
    const table = [
      '| measure | value | target |',
      '|---|---|---|',
      `| (1) RedisMailboxStore enqueue+claim+ack cycles/s | ${ours.toFixed(0)} | |`,
      `| (1) BullMQ add+process jobs/s | ${bull.toFixed(0)} | |`,
      `| (1) ratio store / BullMQ | **${(ours / bull).toFixed(2)}x** | >= 2x |`,
      `| (2) store claims/s (50 concurrent, limit 1) | ${claims.toFixed(0)} | |`,
      `| (2) redis-benchmark EVALSHA claim/s (-c 50) | ${benchmark.toFixed(0)} | |`,
      `| (2) ratio store / redis-benchmark | **${(claims / benchmark).toFixed(2)}x** | >= 0.7x |`,
      `| (4) memory per queued dispatch | ${perDispatch.toFixed(0)} B | |`,
      `| (4) memory per waiting run record | ${perRun.toFixed(0)} B | |`,
    ].join('\n');
    const report = `# Redis mailbox benchmark

Command: \`pnpm --filter @awaken/bench bench:mailbox-redis\` (tooling/bench/src/mailbox-redis.ts).
Setup: ${version}; a dedicated redis-server started by the benchmark (loopback, no persistence);
Node ${process.version}; ${cpus().length} CPUs, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(
        ' / ',
      )} at the end of the run (other work was running on the machine); ${CYCLES} cycles, ${CLAIMS} claims, ${MEMORY_ITEMS} items for memory.

${table}

Notes:
- (1) both sides run 50 producers and 50 consumers (our store: 50 loops of \`claim({ limit: 1 })\`
  + \`ack\`, sleeping ${IDLE_POLL_MS} ms when a claim comes back empty, as an idle worker polls;
  BullMQ: one Worker with \`concurrency: 50\`, which blocks on a marker instead) against the same server, timed from the first add to the last completion. Neither side deletes finished records.
- (2) redis-benchmark runs \`redis-benchmark ${redisBenchmarkArgs(0).slice(2).join(' ').replace('-p 0 ', '')}\`
  (the claim script, one claim per call, on ${CLAIMS} queued dispatches); our side runs 50 loops of
  \`claim({ limit: 1 })\` through ioredis on one connection, including decoding and schema validation.
- (4) INFO \`used_memory\` delta over ${MEMORY_ITEMS} enqueued dispatches (hash + ready/thread zsets)
  and over ${MEMORY_ITEMS} run records checkpointed to \`waiting\` (JSON + index entries).
`;
    const out = fileURLToPath(new URL('../results/mailbox-redis.md', import.meta.url));
    writeFileSync(out, report);
    process.stdout.write(`${report}\n`);
  } finally {
    await server.stop();
  }
}

await main();
