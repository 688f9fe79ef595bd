/**
 * Measures (3), (5) and (4) of the Redis mailbox benchmark (see mailbox-redis.ts), all read from the
 * server itself:
 * (3) Redis time per item per operation: INFO commandstats (`usec` and `calls` of every command,
 *     summed) before and after a phase that does one operation for N items — ours: enqueue, claim,
 *     ack; BullMQ: add, then the Worker's fetch + complete;
 * (5) ack cost with one thread holding a backlog of queued dispatches: Redis time of the ack
 *     command of one claim + ack cycle on that thread, median over a few cycles;
 * (4) Redis memory (INFO used_memory delta) per queued and per finished (acked) dispatch, and what
 *     the replies recorded for re-sent requests add while they are kept.
 */
import type { MailboxStore, RunDispatch } from '@awaken/contract';
import { RedisMailboxStore } from '@awaken/store-redis';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { commandTotals, redisCpuSeconds, usedMemory } from './internal/redis-info';
import { CONCURRENCY } from './mailbox-redis-cycles';

export interface PhaseCost {
  /** Redis time (commandstats usec, every command) per item, µs. */
  usPerItem: number;
  /** Client-issued commands (script calls, blocking pops) per item. */
  callsPerItem: number;
  /** Commands run inside those scripts per item. */
  innerPerItem: number;
  /** Redis process CPU (user + sys: commands, network, event loop) per item, µs. */
  cpuUsPerItem?: number;
  /** Per command name: calls and Redis µs per item (a script's µs include its inner commands'). */
  byCommand?: Map<string, { calls: number; us: number }>;
}

async function phase(admin: Redis, items: number, run: () => Promise<unknown>): Promise<PhaseCost> {
  const cpuBefore = await redisCpuSeconds(admin);
  const before = await commandTotals(admin);
  await run();
  const after = await commandTotals(admin);
  const cpuUs = ((await redisCpuSeconds(admin)) - cpuBefore) * 1e6;
  const byCommand = new Map<string, { calls: number; us: number }>();
  for (const [name, stat] of after.byCommand) {
    const earlier = before.byCommand.get(name) ?? { calls: 0, usec: 0 };
    if (stat.calls === earlier.calls) continue;
    byCommand.set(name, {
      calls: (stat.calls - earlier.calls) / items,
      us: (stat.usec - earlier.usec) / items,
    });
  }
  return {
    byCommand,
    cpuUsPerItem: cpuUs / items,
    usPerItem: (after.usec - before.usec) / items,
    callsPerItem: (after.calls - before.calls) / items,
    innerPerItem: (after.inner - before.inner) / items,
  };
}

/** Runs `each(i)` for i in [0, total) on 50 concurrent loops. */
async function spread(total: number, each: (index: number) => Promise<unknown>): Promise<void> {
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      for (let index = loop; index < total; index += CONCURRENCY) await each(index);
    }),
  );
}

export interface OpCosts {
  ours: { enqueue: PhaseCost; claim: PhaseCost; ack: PhaseCost };
  bull: { add: PhaseCost; work: PhaseCost };
}

/** (3): each operation on its own for `items` items, ours then BullMQ, on a flushed server. */
export async function operationCosts(
  url: string,
  port: number,
  admin: Redis,
  items: number,
): Promise<OpCosts> {
  const ours = await storeOperationCosts(url, admin, items);
  return { ours, bull: await bullCosts(port, admin, items) };
}

/** A store to measure: the mailbox, and a way to close it. */
export type ClosableMailbox = MailboxStore & { close(): Promise<void> };

/**
 * (3), the store's side only: enqueue, claim (limit 50), ack of `items` items, on a flushed server;
 * `create` makes the store (default: a RedisMailboxStore on `url`).
 */
export async function storeOperationCosts(
  url: string,
  admin: Redis,
  items: number,
  create: (url: string) => ClosableMailbox = (at) => new RedisMailboxStore({ redis: at, prefix: 'ops' }),
): Promise<OpCosts['ours']> {
  await admin.flushall();
  await admin.config('RESETSTAT');
  const store = create(url);
  const claimed: RunDispatch[] = [];
  try {
    await store.now(); // connected before the first phase
    const enqueue = await phase(admin, items, () =>
      spread(items, (index) => store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` })),
    );
    const claim = await phase(admin, items, async () => {
      while (claimed.length < items) {
        const batch = await store.claim({ workerId: 'w', limit: CONCURRENCY, leaseMs: 60_000 });
        if (batch.length === 0) throw new Error('claim came back empty');
        claimed.push(...batch);
      }
    });
    const ack = await phase(admin, items, () =>
      spread(items, (index) => {
        const dispatch = claimed[index] as RunDispatch;
        return store.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
      }),
    );
    return { enqueue, claim, ack };
  } finally {
    await store.close();
  }
}

async function bullCosts(port: number, admin: Redis, items: number): Promise<OpCosts['bull']> {
  await admin.flushall();
  const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
  const queue = new Queue('ops', { connection });
  const worker = new Worker('ops', async () => undefined, {
    connection,
    concurrency: CONCURRENCY,
    autorun: false,
  });
  try {
    await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
    const add = await phase(admin, items, () => spread(items, (index) => queue.add('job', { index })));
    const work = await phase(admin, items, async () => {
      let completed = 0;
      const done = new Promise<void>((resolve) => {
        worker.on('completed', () => {
          completed += 1;
          if (completed === items) resolve();
        });
      });
      void worker.run();
      await done;
      await worker.close(); // its idle blocking call would count as time spent otherwise
    });
    return { add, work };
  } finally {
    await worker.close();
    await queue.close();
  }
}

export interface BacklogCost {
  backlog: number;
  /** Redis time of one ack (median over the cycles), µs. */
  ackUs: number;
  /** Redis time of the claim that follows it, µs. */
  claimUs: number;
}

const BACKLOG_CYCLES = 21;

/** (5): claim + ack cycles on one thread that holds `backlog` more queued dispatches. */
export async function backlogCost(url: string, admin: Redis, backlog: number): Promise<BacklogCost> {
  await admin.flushall();
  const store = new RedisMailboxStore({ redis: url, prefix: 'backlog' });
  try {
    const total = backlog + BACKLOG_CYCLES;
    await spread(total, () => store.enqueue({ threadId: 'busy', runId: 'run' }));
    const acks: number[] = [];
    const claims: number[] = [];
    for (let cycle = 0; cycle < BACKLOG_CYCLES; cycle += 1) {
      let before = await commandTotals(admin);
      const [dispatch] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
      if (!dispatch) throw new Error('nothing to claim');
      let after = await commandTotals(admin);
      claims.push(after.usec - before.usec);
      before = after;
      await store.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
      after = await commandTotals(admin);
      acks.push(after.usec - before.usec);
    }
    return { backlog, ackUs: medianOf(acks), claimUs: medianOf(claims) };
  } finally {
    await store.close();
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export interface MemoryCost {
  /** Bytes per queued dispatch (the dispatch and its index entries), recorded replies excluded. */
  queued: number;
  /** Bytes per acked dispatch still kept (until purged), recorded replies excluded. */
  finished: number;
  /** Bytes per dispatch of the replies recorded for re-sent requests (enqueue, claim, ack), kept for requestTtlMs. */
  recordedReplies: number;
}

async function deleteRecordedReplies(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}rq:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** (4): memory per queued and per finished dispatch, over `items` dispatches on their own threads. */
export async function memoryCost(url: string, admin: Redis, items: number): Promise<MemoryCost> {
  await admin.flushall();
  const store = new RedisMailboxStore({ redis: url, prefix: 'mem' });
  try {
    const start = await usedMemory(admin);
    await spread(items, (index) => store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` }));
    let replies = await usedMemory(admin);
    await deleteRecordedReplies(admin, store.prefix);
    const queued = await usedMemory(admin);
    replies -= queued;
    let claimed = 0;
    const acks: Promise<unknown>[] = [];
    while (claimed < items) {
      const batch = await store.claim({ workerId: 'w', limit: CONCURRENCY, leaseMs: 60_000 });
      claimed += batch.length;
      for (const dispatch of batch) {
        acks.push(store.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' }));
      }
      await Promise.all(acks.splice(0));
    }
    const withReplies = await usedMemory(admin);
    await deleteRecordedReplies(admin, store.prefix);
    const finished = await usedMemory(admin);
    replies += withReplies - finished;
    return {
      queued: (queued - start) / items,
      finished: (finished - start) / items,
      recordedReplies: replies / items,
    };
  } finally {
    await store.close();
  }
}
