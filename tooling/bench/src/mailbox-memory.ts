/**
 * The memory MailboxStore's enqueue → claim → ack cycle rate against a naive Map-and-array queue in
 * the same run (target: the memory store at least 0.5× the naive queue). Run from the repo root:
 * `npx tsx tooling/bench/src/mailbox-memory.ts` (or `pnpm --filter @awaken/bench bench:mailbox-memory`).
 *
 * Scenarios, each with 50 concurrent workers on distinct threads:
 * - idle: nothing else queued;
 * - backlog: 2,000 delayed dispatches (availableAt in an hour) sit in the queue, so every claim must
 *   skip them.
 * The naive reference implements the same claim rules the obvious way (see `createNaiveQueue`) but
 * skips what the store adds on top: input validation, dedupe keys, epochs and epoch fencing, indexes
 * for listing and purging.
 */
import { randomUUID } from 'node:crypto';
import type { MailboxStore } from '@awaken/contract';
import { createMemoryMailboxStore } from '@awaken/store-memory';

interface NaiveRecord {
  dispatchId: string;
  threadId: string;
  runId: string;
  priority: number;
  status: 'queued' | 'claimed' | 'acked';
  availableAt: number;
  attemptCount: number;
  claimToken?: string;
  claimedBy?: string;
  leaseUntil?: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * The naive reference: the same queue semantics (priority then age, availableAt, one claim per
 * thread, random claim tokens, token + lease check on ack, copies handed out) written the obvious way —
 * a Map of records and an array of queued ids, scanned, filtered and sorted on every claim.
 */
function createNaiveQueue() {
  const records = new Map<string, NaiveRecord>();
  const claimedThreads = new Set<string>();
  let queue: string[] = [];
  return {
    async enqueue(input: { threadId: string; runId: string; availableAt?: number }) {
      const now = Date.now();
      const record: NaiveRecord = {
        dispatchId: randomUUID(),
        threadId: input.threadId,
        runId: input.runId,
        priority: 128,
        status: 'queued',
        availableAt: input.availableAt ?? now,
        attemptCount: 0,
        createdAt: now,
        updatedAt: now,
      };
      records.set(record.dispatchId, record);
      queue.push(record.dispatchId);
      return { ...record };
    },
    async claim(input: { workerId: string; limit: number; leaseMs: number }) {
      const now = Date.now();
      const ready = queue
        .map((id) => records.get(id)!)
        .filter((record) => record.availableAt <= now && !claimedThreads.has(record.threadId))
        .sort((a, b) => a.priority - b.priority || a.createdAt - b.createdAt);
      const claimed: NaiveRecord[] = [];
      for (const record of ready) {
        if (claimed.length === input.limit) break;
        if (claimedThreads.has(record.threadId)) continue;
        Object.assign(record, {
          status: 'claimed',
          claimToken: randomUUID(),
          claimedBy: input.workerId,
          leaseUntil: now + input.leaseMs,
          updatedAt: now,
        });
        claimedThreads.add(record.threadId);
        claimed.push({ ...record });
      }
      queue = queue.filter((id) => records.get(id)!.status === 'queued');
      return claimed;
    },
    async ack(proof: { dispatchId: string; claimToken: string }) {
      const record = records.get(proof.dispatchId);
      const now = Date.now();
      if (
        record?.status !== 'claimed' ||
        record.claimToken !== proof.claimToken ||
        now > record.leaseUntil!
      ) {
        throw new Error('stale claim');
      }
      record.status = 'acked';
      record.updatedAt = now;
      claimedThreads.delete(record.threadId);
      return { ...record };
    },
  };
}

type Cycle = (worker: number) => Promise<void>;

function storeCycle(store: MailboxStore): Cycle {
  return async (worker) => {
    await store.enqueue({ threadId: `thread-${worker}`, runId: `run-${worker}` });
    const [claimed] = await store.claim({ workerId: `w${worker}`, limit: 1, leaseMs: 30_000 });
    if (claimed?.claimToken === undefined) return;
    await store.ack({ dispatchId: claimed.dispatchId, claimToken: claimed.claimToken });
  };
}

function naiveCycle(queue: ReturnType<typeof createNaiveQueue>): Cycle {
  return async (worker) => {
    await queue.enqueue({ threadId: `thread-${worker}`, runId: `run-${worker}` });
    const [claimed] = await queue.claim({ workerId: `w${worker}`, limit: 1, leaseMs: 30_000 });
    if (claimed?.claimToken === undefined) return;
    await queue.ack({ dispatchId: claimed.dispatchId, claimToken: claimed.claimToken });
  };
}

/** Cycles per second with `workers` concurrent loops running for `ms`. */
async function rate(cycle: Cycle, { workers = 50, ms = 1_500 } = {}): Promise<number> {
  let cycles = 0;
  const deadline = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < deadline) {
        await cycle(worker);
        cycles += 1;
      }
    }),
  );
  return cycles / ((performance.now() - started) / 1000);
}

async function scenario(name: string, backlog: number) {
  const store = createMemoryMailboxStore();
  const naive = createNaiveQueue();
  const later = Date.now() + 3_600_000;
  for (let index = 0; index < backlog; index += 1) {
    await store.enqueue({ threadId: `backlog-${index}`, runId: `r${index}`, availableAt: later });
    await naive.enqueue({ threadId: `backlog-${index}`, runId: `r${index}`, availableAt: later });
  }
  await rate(storeCycle(store), { ms: 300 });
  await rate(naiveCycle(naive), { ms: 300 });
  const samples = { store: [] as number[], naive: [] as number[] };
  for (let round = 0; round < 3; round += 1) {
    samples.store.push(await rate(storeCycle(store)));
    samples.naive.push(await rate(naiveCycle(naive)));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const storeRate = median(samples.store);
  const naiveRate = median(samples.naive);
  return { name, storeRate, naiveRate, ratio: storeRate / naiveRate };
}

const results = [await scenario('idle (0 backlog)', 0), await scenario('backlog (2,000 delayed)', 2_000)];
console.log(`node ${process.version}, ${process.platform}/${process.arch}, 50 concurrent workers`);
console.log('| scenario | memory store cycles/s | naive reference cycles/s | ratio (target ≥ 0.5) |');
console.log('|---|---:|---:|---:|');
for (const result of results) {
  console.log(
    `| ${result.name} | ${Math.round(result.storeRate).toLocaleString('en')} | ${Math.round(result.naiveRate).toLocaleString('en')} | ${result.ratio.toFixed(2)}× |`,
  );
}
