/**
 * Thread branch creation cost against the prefix length, on memory, Redis and PostgreSQL: a branch
 * stores a pointer to its source's prefix, so creating one at any message of a 10-message or a
 * 10,000-message thread should cost the same. For each backend and prefix size: a thread of `size`
 * messages (appended in batches of 1,000), then `BRANCHES` branches of each created one at a time,
 * the calls alternating between the sizes, at seqs spread over the whole log, timed per call; then, for
 * contrast, `COPIES` copies of the prefix the way a copy-based fork makes them (read the prefix,
 * append it to a new thread). The best round's median is reported.
 * Starts its own redis-server and postgres (fsync off, like the tests). Writes results/thread-branches.md.
 *   pnpm --filter @awaken/bench bench:thread-branches
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  type NewMessage,
  type ThreadBranching,
  type ThreadRunStore,
  threadBranching,
} from '@awaken/contract';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { PostgresThreadRunStore } from '@awaken/store-postgres';
import { RedisThreadRunStore } from '@awaken/store-redis';
import { startPostgresServer, startRedisServer } from '@awaken/testing';

const SIZES = [10, 10_000];
const BRANCHES = Number(process.env.BENCH_BRANCHES ?? 200);
const COPIES = Number(process.env.BENCH_COPIES ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Backend {
  name: string;
  open(round: number): Promise<{ store: ThreadRunStore; close(): Promise<void> }>;
}

const message = (index: number): NewMessage => ({
  visibility: 'external',
  message:
    index % 2 === 0
      ? { role: 'user', content: `question ${index}: what does the log say about item ${index}?` }
      : { role: 'assistant', text: `answer ${index}: the log says item ${index} is fine.`, toolCalls: [] },
});

async function threadOf(store: ThreadRunStore, id: string, size: number): Promise<void> {
  await store.createThread({ id });
  for (let from = 0; from < size; from += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, size - from) }, (_, index) => message(from + index));
    await store.appendMessages(id, { expectedLength: from, messages: batch });
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

interface Measure {
  branchP50: number;
  branchP99: number;
  copyP50: number;
}

/** `BRANCHES` branches of each thread, the calls alternating between the sizes (same conditions). */
async function measureBranches(branching: ThreadBranching, threads: Array<{ id: string; size: number }>) {
  const times = threads.map(() => [] as number[]);
  for (let index = 0; index < BRANCHES; index += 1) {
    for (const [which, { id, size }] of threads.entries()) {
      // spread over the log: 1, ..., size (the first and last included)
      const atSeq = 1 + Math.round(((size - 1) * index) / Math.max(1, BRANCHES - 1));
      const started = performance.now();
      await branching.createBranch({ threadId: id, atSeq });
      times[which]?.push(performance.now() - started);
    }
  }
  return times.map((each) => ({ p50: quantile(each, 0.5), p99: quantile(each, 0.99) }));
}

/** What a copy-based fork costs: read the prefix, append it to a new thread (median of `COPIES`). */
async function measureCopy(store: ThreadRunStore, id: string, size: number): Promise<number> {
  const copy: number[] = [];
  for (let index = 0; index < COPIES; index += 1) {
    const started = performance.now();
    const prefix = await store.readMessages(id, { to: size });
    const target = `${id}:copy:${index}`;
    await store.createThread({ id: target });
    await store.appendMessages(target, {
      expectedLength: 0,
      messages: prefix.map(({ threadId: _t, seq: _s, createdAt: _c, ...kept }) => kept),
    });
    copy.push(performance.now() - started);
  }
  return quantile(copy, 0.5);
}

const redis = await startRedisServer();
const postgres = await startPostgresServer();
const backends: Backend[] = [
  {
    name: 'memory',
    open: async () => ({ store: createMemoryThreadRunStore(), close: async () => undefined }),
  },
  {
    name: 'Redis',
    open: async (round) => {
      const store = new RedisThreadRunStore({ redis: redis.url, prefix: `bench-branch:${round}:` });
      return { store, close: () => store.close() };
    },
  },
  {
    name: 'PostgreSQL',
    open: async (round) => {
      const store = new PostgresThreadRunStore({ postgres: postgres.url, schema: `bench_branch_${round}` });
      return { store, close: () => store.close() };
    },
  },
];

const best = new Map<string, Measure>();
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const backend of backends) {
      const { store, close } = await backend.open(round);
      const branching = threadBranching(store);
      if (!branching) throw new Error(`${backend.name} offers no branching`);
      const threads = SIZES.map((size) => ({ id: `bench-${round}-${size}`, size }));
      for (const { id, size } of threads) await threadOf(store, id, size);
      const branches = await measureBranches(branching, threads);
      for (const [which, { id, size }] of threads.entries()) {
        const branch = branches[which] ?? { p50: 0, p99: 0 };
        const result = {
          branchP50: branch.p50,
          branchP99: branch.p99,
          copyP50: await measureCopy(store, id, size),
        };
        const key = `${backend.name}:${size}`;
        const kept = best.get(key);
        if (!kept || result.branchP50 < kept.branchP50) best.set(key, result);
        console.log(
          `round ${round} ${key}: branch p50 ${result.branchP50.toFixed(3)} ms, copy p50 ${result.copyP50.toFixed(1)} ms`,
        );
      }
      await close();
    }
  }
} finally {
  await redis.stop();
  await postgres.stop();
}

const ms = (value: number | undefined, digits = 3) => (value === undefined ? '-' : value.toFixed(digits));
const rows = backends.map(({ name }) => {
  const small = best.get(`${name}:${SIZES[0]}`);
  const large = best.get(`${name}:${SIZES[1]}`);
  const ratio = small && large ? (large.branchP50 / small.branchP50).toFixed(2) : '-';
  const copyRatio = small && large ? (large.copyP50 / small.copyP50).toFixed(0) : '-';
  return `| ${name} | ${ms(small?.branchP50)} / ${ms(small?.branchP99)} | ${ms(large?.branchP50)} / ${ms(large?.branchP99)} | ${ratio}× | ${ms(small?.copyP50, 1)} | ${ms(large?.copyP50, 1)} | ${copyRatio}× |`;
});

const report = `# Thread branches: creation cost against the prefix length

Command: \`pnpm --filter @awaken/bench bench:thread-branches\` (BENCH_BRANCHES=${BRANCHES}, BENCH_COPIES=${COPIES}, BENCH_ROUNDS=${ROUNDS}).
Same machine, loopback, both servers started by the benchmark (postgres with fsync off, redis without persistence).
Each round builds a thread of 10 and one of 10,000 messages on each backend, then times
${BRANCHES} \`createBranch\` calls on each, one at a time, alternating between the two threads, at seqs
spread from the first message to the last;
the best round's median (p50) and p99 are shown. "copy" is what a copy-based fork costs for contrast:
read the prefix and append it to a new thread (median of ${COPIES}).
Machine when measured: a shared 2-core container (other sessions running: absolute numbers are noisy, the ratio is what to read).

| backend | branch p50 / p99 ms, 10 msgs | branch p50 / p99 ms, 10,000 msgs | ratio (10,000 / 10) | copy p50 ms, 10 | copy p50 ms, 10,000 | copy ratio |
| --- | --- | --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}

A branch writes one record (memory: one entry; Redis: one hash and one sorted-set member, in one
script that never reads the source's log; PostgreSQL: one row, inserted after reading the source's
row \`FOR KEY SHARE\`), so its cost does not depend on the prefix; a copy grows with it.
`;
writeFileSync(new URL('../results/thread-branches.md', import.meta.url), report);
console.log(report);
