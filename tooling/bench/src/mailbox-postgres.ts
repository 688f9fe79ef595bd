/**
 * The Postgres mailbox next to the Redis one and a plain SKIP LOCKED queue, same machine, loopback,
 * interleaved rounds (each backend once per round, fresh data each time):
 *   cycles/s  enqueue → claim → ack of `TOTAL` items: 10 producer loops enqueue one at a time on one
 *             store instance; one consumer instance claims up to 10 at a time and acks each; the clock
 *             runs from the first enqueue to the last ack;
 *   per-op    p50 / p99 latency of single enqueue, claim (limit 1) and ack calls, one at a time.
 * The floor: `jobs(id bigserial, status)`; enqueue = INSERT, claim = UPDATE … WHERE id IN (SELECT …
 * FOR UPDATE SKIP LOCKED LIMIT n), ack = UPDATE, each one autocommitted statement on a pg Pool — no
 * threads, leases, fencing, epochs, dedupe or request records: the least a Postgres queue costs.
 * Starts its own redis-server and postgres (fsync off, like the tests). Writes results/mailbox-postgres.md.
 *   pnpm --filter @awaken/bench bench:mailbox-postgres
 */
import { writeFileSync } from 'node:fs';
import type { MailboxStore, RunDispatch } from '@awaken/contract';
import { PostgresMailboxStore } from '@awaken/store-postgres';
import { RedisMailboxStore } from '@awaken/store-redis';
import { startPostgresServer, startRedisServer } from '@awaken/testing';
import pg from 'pg';
import { type PgCounts, startPgCountingProxy } from './internal/pg-counting-proxy';

const TOTAL = Number(process.env.BENCH_TOTAL ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const OPS = Number(process.env.BENCH_OPS ?? 200);
const PRODUCERS = 10;

/** The common shape of the three queues. */
interface Queue {
  enqueue(index: number): Promise<unknown>;
  claim(limit: number): Promise<{ id: string; token: string }[]>;
  ack(item: { id: string; token: string }): Promise<unknown>;
  close(): Promise<void>;
}

function storeQueue(store: MailboxStore & { close(): Promise<void> }): Queue {
  const item = (dispatch: RunDispatch) => ({ id: dispatch.dispatchId, token: dispatch.claimToken ?? '' });
  return {
    enqueue: (index) => store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` }),
    claim: async (limit) => (await store.claim({ workerId: 'bench', limit, leaseMs: 30_000 })).map(item),
    ack: ({ id, token }) => store.ack({ dispatchId: id, claimToken: token }),
    close: () => store.close(),
  };
}

async function floorQueue(url: string, table: string): Promise<Queue> {
  const pool = new pg.Pool({ connectionString: url, max: 12 });
  pool.on('error', () => undefined); // an idle client's loss as the benchmark stops the server
  await pool.query(
    `CREATE TABLE ${table} (id bigserial PRIMARY KEY, status text NOT NULL, payload text NOT NULL)`,
  );
  await pool.query(`CREATE INDEX ON ${table} (id) WHERE status = 'queued'`);
  return {
    enqueue: (index) =>
      pool.query(`INSERT INTO ${table} (status, payload) VALUES ('queued', $1)`, [`run-${index}`]),
    claim: async (limit) =>
      (
        await pool.query(
          `UPDATE ${table} SET status = 'claimed' WHERE id IN (
             SELECT id FROM ${table} WHERE status = 'queued' ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id`,
          [limit],
        )
      ).rows.map((row) => ({ id: String(row.id), token: '' })),
    ack: ({ id }) => pool.query(`UPDATE ${table} SET status = 'acked' WHERE id = $1`, [id]),
    close: () => pool.end(),
  };
}

async function cycles(producer: Queue, consumer: Queue): Promise<number> {
  const started = performance.now();
  let acked = 0;
  const produce = Promise.all(
    Array.from({ length: PRODUCERS }, async (_, loop) => {
      for (let index = loop; index < TOTAL; index += PRODUCERS) await producer.enqueue(index);
    }),
  );
  while (acked < TOTAL) {
    const batch = await consumer.claim(10);
    if (batch.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await Promise.all(batch.map((item) => consumer.ack(item)));
    acked += batch.length;
  }
  await produce;
  return TOTAL / ((performance.now() - started) / 1000);
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;

async function latencies(queue: Queue): Promise<Record<'enqueue' | 'claim' | 'ack', number[]>> {
  const out = { enqueue: [] as number[], claim: [] as number[], ack: [] as number[] };
  for (let index = 0; index < OPS; index += 1) {
    let t = performance.now();
    await queue.enqueue(1_000_000 + index);
    out.enqueue.push(performance.now() - t);
    t = performance.now();
    const [item] = await queue.claim(1);
    out.claim.push(performance.now() - t);
    if (item === undefined) throw new Error('claim found nothing');
    t = performance.now();
    await queue.ack(item);
    out.ack.push(performance.now() - t);
  }
  return out;
}

/**
 * Round trips, statements and commits per operation, counted by a proxy in front of the database
 * (sequential calls; ten enqueues started in one tick counted as one group).
 */
async function costs(queue: Queue, counts: PgCounts): Promise<Record<string, PgCounts>> {
  const out: Record<string, PgCounts> = {};
  const per = (op: string, n: number, before: PgCounts) => {
    out[op] = {
      roundTrips: (counts.roundTrips - before.roundTrips) / n,
      statements: (counts.statements - before.statements) / n,
      commits: (counts.commits - before.commits) / n,
    };
  };
  await queue.enqueue(2_000_000); // warm-up: connections, migrations
  await queue.ack((await queue.claim(1))[0] ?? { id: '', token: '' });
  const n = 50;
  let before = { ...counts };
  for (let index = 0; index < n; index += 1) await queue.enqueue(2_000_001 + index);
  per('enqueue', n, before);
  const items: { id: string; token: string }[] = [];
  before = { ...counts };
  for (let index = 0; index < n; index += 1) items.push(...(await queue.claim(1)));
  per('claim', n, before);
  before = { ...counts };
  for (const item of items) await queue.ack(item);
  per('ack', n, before);
  before = { ...counts };
  await Promise.all(Array.from({ length: 10 }, (_, index) => queue.enqueue(3_000_000 + index)));
  per('10 enqueues in one tick', 1, before);
  const batch = await queue.claim(10);
  before = { ...counts };
  await Promise.all(batch.map((item) => queue.ack(item)));
  per('10 acks in one tick', 1, before);
  return out;
}

const redis = await startRedisServer();
const postgres = await startPostgresServer();
const backends: Record<string, (round: number) => Promise<Queue>> = {
  redis: async (round) => storeQueue(new RedisMailboxStore({ redis: redis.url, prefix: `bench:${round}:` })),
  postgres: async (round) => {
    const store = new PostgresMailboxStore({ postgres: postgres.url, schema: `bench_${round}` });
    await store.db.ready();
    return storeQueue(store);
  },
  'SKIP LOCKED floor': async (round) => floorQueue(postgres.url, `floor_${round}`),
};
const counted: Record<string, Record<string, PgCounts>> = {};
const rates: Record<string, number[]> = {};
const ops: Record<string, Record<string, number[]>> = {};
try {
  const proxy = await startPgCountingProxy(postgres.url);
  {
    const store = new PostgresMailboxStore({ postgres: proxy.url, schema: 'bench_costs' });
    counted.postgres = await costs(storeQueue(store), proxy.counts);
    await store.close();
    const floor = await floorQueue(proxy.url, 'floor_costs');
    counted['SKIP LOCKED floor'] = await costs(floor, proxy.counts);
    await floor.close();
    await proxy.close();
  }
  let round = 0;
  for (let pass = 0; pass < ROUNDS; pass += 1) {
    for (const [name, open] of Object.entries(backends)) {
      round += 1;
      const producer = await open(round);
      // the consumer: its own connection(s) on the same data
      const consumer =
        name === 'SKIP LOCKED floor'
          ? producer
          : name === 'redis'
            ? storeQueue(new RedisMailboxStore({ redis: redis.url, prefix: `bench:${round}:` }))
            : storeQueue(new PostgresMailboxStore({ postgres: postgres.url, schema: `bench_${round}` }));
      const rate = await cycles(producer, consumer);
      rates[name] = [...(rates[name] ?? []), rate];
      const measured = await latencies(producer);
      const perOp = ops[name] ?? {};
      for (const [op, values] of Object.entries(measured)) perOp[op] = [...(perOp[op] ?? []), ...values];
      ops[name] = perOp;
      if (consumer !== producer) await consumer.close();
      await producer.close();
      console.error(`${name} round ${pass + 1}: ${rates[name]?.at(-1)?.toFixed(0)} cycles/s`);
    }
  }
} finally {
  await redis.stop();
  await postgres.stop();
}
const best = (name: string) => Math.max(...(rates[name] ?? [0]));
const lines = [
  '# Mailbox: PostgreSQL vs Redis vs a plain SKIP LOCKED queue',
  '',
  `Command: \`pnpm --filter @awaken/bench bench:mailbox-postgres\` (BENCH_TOTAL=${TOTAL}, BENCH_ROUNDS=${ROUNDS}, BENCH_OPS=${OPS}).`,
  `Same machine, loopback, both servers started by the benchmark (postgres with fsync off, redis without persistence), interleaved rounds; best round shown.`,
  `Machine when measured: ${process.env.BENCH_MACHINE_NOTE ?? 'a shared 2-core container (load average well above 2: absolute numbers are low, ratios are what to read)'}.`,
  '',
  '| backend | enqueue→claim→ack cycles/s | vs Redis | enqueue p50 / p99 ms | claim p50 / p99 ms | ack p50 / p99 ms |',
  '| --- | ---: | ---: | --- | --- | --- |',
];
for (const name of Object.keys(backends)) {
  const cell = (op: string) => {
    const values = ops[name]?.[op] ?? [];
    return `${percentile(values, 50).toFixed(2)} / ${percentile(values, 99).toFixed(2)}`;
  };
  lines.push(
    `| ${name} | ${best(name).toFixed(0)} | ${(best(name) / best('redis')).toFixed(2)}× | ${cell('enqueue')} | ${cell('claim')} | ${cell('ack')} |`,
  );
}
const perRound = (rates.postgres ?? []).map(
  (rate, round) => rate / (rates['SKIP LOCKED floor']?.[round] ?? 1),
);
lines.push(
  '',
  `Postgres mailbox ÷ SKIP LOCKED floor, round by round (the same round runs both): ${perRound.map((ratio) => `${ratio.toFixed(2)}×`).join(', ')}; best round ÷ best round: ${(best('postgres') / best('SKIP LOCKED floor')).toFixed(2)}×.`,
);
lines.push(
  '',
  'Round trips / statements / commits per operation, counted by a proxy in front of PostgreSQL (`src/internal/pg-counting-proxy.ts`: ReadyForQuery, CommandComplete, COMMIT), calls one at a time:',
  '',
  '| backend | enqueue | claim (limit 1) | ack | 10 enqueues in one tick | 10 acks in one tick |',
  '| --- | --- | --- | --- | --- | --- |',
);
for (const [name, perOp] of Object.entries(counted)) {
  const cell = (op: string) => {
    const c = perOp[op];
    return c === undefined
      ? ''
      : `${c.roundTrips.toFixed(1)} / ${c.statements.toFixed(1)} / ${c.commits.toFixed(1)}`;
  };
  lines.push(
    `| ${name} | ${cell('enqueue')} | ${cell('claim')} | ${cell('ack')} | ${cell('10 enqueues in one tick')} | ${cell('10 acks in one tick')} |`,
  );
}
lines.push(
  '',
  'What each does per item: Redis — one Lua script per call (enqueues and acks of a tick batched into one). Postgres — one server-side function call per operation (migration 5: lock the thread row, fence, write, request record, NOTIFY; a call alone is a named prepared statement, its own transaction), the calls of one tick, or queued behind one message, go as one simple-query message (one round trip) and one transaction, their threads locked first in thread order. The floor — one autocommitted statement per call, nothing else.',
  '',
);
writeFileSync(new URL('../results/mailbox-postgres.md', import.meta.url), lines.join('\n'));
console.log(lines.join('\n'));
