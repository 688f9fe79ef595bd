/**
 * Measure (1) of the Redis mailbox benchmark: enqueue+claim+ack cycles/s of RedisMailboxStore vs
 * BullMQ add + Worker process on the same Redis, in interleaved rounds (see mailbox-redis.ts).
 *
 * Both sides, per round: Redis is flushed; the producer and the consumer each have their own
 * connection(s), connected before the clock starts; 50 producer loops each add their share one at a
 * time (`enqueue` / `queue.add`); one consumer with concurrency 50 runs a no-op handler per item;
 * the clock runs from the first add to the last completion. Finished records stay (no purge,
 * BullMQ defaults: no removeOnComplete).
 *   ours:   one worker loop keeps up to 50 dispatches in flight: `claim({ limit: free slots,
 *           leaseMs: 30_000 })`, handler, then `ack` each one on its own; after an empty claim it
 *           blocks in `waitForWork({ timeoutMs: IDLE_WAIT_MS })` (BLPOP on the store's wake-up
 *           marker list, pushed by enqueue) and claims again whatever it returns.
 *   BullMQ: `new Worker(queue, async () => undefined, { concurrency: 50 })`, default options.
 */
import type { RunDispatch } from '@awaken/contract';
import { RedisMailboxStore } from '@awaken/store-redis';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { commandTotals, redisCpuSeconds } from './internal/redis-info';

export const CONCURRENCY = 50;
/** The longest our idle worker blocks in `waitForWork` after an empty claim before claiming again. */
export const IDLE_WAIT_MS = 1000;

export interface CycleSample {
  /** Items per second, first add to last completion. */
  rate: number;
  /** Node (producer + consumer, one process) and Redis CPU time per item, in microseconds. */
  nodeCpuUs: number;
  redisCpuUs: number;
  /** Redis time in commands (INFO commandstats usec) per item, µs, and commands per item. */
  redisCommandUs: number;
  commandsPerItem: number;
  /** Claim calls per item (ours only). */
  claimsPerItem?: number;
}

const noop = async (_item: unknown): Promise<void> => undefined;

/** Items [0, total) split over 50 loops, each adding its share in order. */
async function produce(total: number, add: (index: number) => Promise<unknown>): Promise<void> {
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      for (let index = loop; index < total; index += CONCURRENCY) await add(index);
    }),
  );
}

/** A worker with concurrency 50 on the store: claim up to the free slots, handle, ack each. */
async function consume(store: RedisMailboxStore, total: number): Promise<number> {
  let claimed = 0;
  let claimCalls = 0;
  let inFlight = 0;
  let failure: unknown;
  let slotFreed: (() => void) | undefined;
  const finishOne = () => {
    inFlight -= 1;
    slotFreed?.();
    slotFreed = undefined;
  };
  const handle = async (dispatch: RunDispatch) => {
    await noop(dispatch);
    await store.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
  };
  while (claimed < total || inFlight > 0) {
    if (failure) throw failure;
    const free = CONCURRENCY - inFlight;
    if (free === 0 || claimed >= total) {
      await new Promise<void>((resolve) => {
        slotFreed = resolve;
      });
      continue;
    }
    claimCalls += 1;
    const batch = await store.claim({ workerId: 'bench-worker', limit: free, leaseMs: 30_000 });
    if (batch.length === 0) {
      await store.waitForWork({ timeoutMs: IDLE_WAIT_MS });
      continue;
    }
    claimed += batch.length;
    inFlight += batch.length;
    for (const dispatch of batch) {
      handle(dispatch).then(finishOne, (error: unknown) => {
        failure = error;
        finishOne();
      });
    }
  }
  if (failure) throw failure;
  return claimCalls;
}

async function timed(
  admin: Redis,
  total: number,
  run: () => Promise<number | undefined>,
): Promise<CycleSample> {
  const redisBefore = await redisCpuSeconds(admin);
  const commandsBefore = await commandTotals(admin);
  const nodeBefore = process.cpuUsage();
  const started = performance.now();
  const claimCalls = await run();
  const seconds = (performance.now() - started) / 1000;
  const node = process.cpuUsage(nodeBefore);
  const redisSeconds = (await redisCpuSeconds(admin)) - redisBefore;
  const commands = await commandTotals(admin);
  return {
    rate: total / seconds,
    nodeCpuUs: (node.user + node.system) / total,
    redisCpuUs: (redisSeconds * 1e6) / total,
    redisCommandUs: (commands.usec - commandsBefore.usec) / total,
    commandsPerItem: (commands.calls - commandsBefore.calls) / total,
    ...(claimCalls === undefined ? {} : { claimsPerItem: claimCalls / total }),
  };
}

export async function storeRound(url: string, admin: Redis, total: number): Promise<CycleSample> {
  await admin.flushall();
  const producer = new RedisMailboxStore({ redis: url, prefix: 'cycles' });
  const consumer = new RedisMailboxStore({ redis: url, prefix: 'cycles' });
  await Promise.all([producer.redis.ping(), consumer.redis.ping()]);
  try {
    return await timed(admin, total, async () => {
      const consumed = consume(consumer, total);
      await produce(total, (index) =>
        producer.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` }),
      );
      return consumed;
    });
  } finally {
    await Promise.all([producer.close(), consumer.close()]);
  }
}

export async function bullmqRound(port: number, admin: Redis, total: number): Promise<CycleSample> {
  await admin.flushall();
  const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
  const queue = new Queue('cycles', { connection });
  const worker = new Worker('cycles', noop, { connection, concurrency: CONCURRENCY, autorun: false });
  await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
  let completed = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  worker.on('completed', () => {
    completed += 1;
    if (completed === total) allDone();
  });
  try {
    return await timed(admin, total, async () => {
      void worker.run();
      await produce(total, (index) => queue.add('job', { index }));
      await done;
      return undefined;
    });
  } finally {
    await worker.close();
    await queue.close();
  }
}

/** A client for flushing and reading INFO between rounds. */
export function adminClient(url: string): Redis {
  return new Redis(url);
}
