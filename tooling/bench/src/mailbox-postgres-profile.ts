/**
 * Where a PostgreSQL mailbox cycle's server time goes, statement by statement, beside the plain
 * SKIP LOCKED floor: `pnpm --filter @awaken/bench bench:mailbox-postgres-profile`. Runs `N`
 * sequential enqueue → claim (limit 1) → ack cycles on one store, then the same on the floor's three
 * statements, and prints pg_stat_statements (`track = all`: the statements inside the functions too)
 * as mean µs per cycle — the server's share of the gap `bench:mailbox-postgres` measures.
 */
import { PostgresMailboxStore } from '@awaken/store-postgres';
import { startPostgresServer } from '@awaken/testing';
import pg from 'pg';

const N = Number(process.env.BENCH_OPS ?? 1_000);
const postgres = await startPostgresServer({
  settings: {
    shared_preload_libraries: 'pg_stat_statements',
    'pg_stat_statements.track': 'all',
    // more server settings to compare, e.g. BENCH_PG_SETTINGS='{"plan_cache_mode":"force_generic_plan"}'
    ...(JSON.parse(process.env.BENCH_PG_SETTINGS ?? '{}') as Record<string, string>),
  },
});
const admin = new pg.Client({ connectionString: postgres.url });
await admin.connect();
await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');

async function report(label: string): Promise<void> {
  const { rows } = await admin.query<{ query: string; calls: string; total: number; toplevel: boolean }>(
    `SELECT query, calls, total_exec_time AS total, toplevel FROM pg_stat_statements
     WHERE query NOT ILIKE '%pg_stat_statements%' AND calls >= $1 ORDER BY total_exec_time DESC LIMIT 25`,
    [N / 2],
  );
  console.log(`\n## ${label}: µs per cycle (server execution), ${N} cycles`);
  for (const row of rows) {
    const per = (row.total * 1000) / N;
    const text = row.query.replace(/\s+/g, ' ').slice(0, 110);
    console.log(
      `${row.toplevel ? 'top ' : '  in'} ${per.toFixed(1).padStart(7)} µs  ${(Number(row.calls) / N).toFixed(1)}×  ${text}`,
    );
  }
}

try {
  const store = new PostgresMailboxStore({ postgres: postgres.url, schema: 'profile' });
  await store.db.ready();
  for (let index = 0; index < 100; index += 1) {
    await store.enqueue({ threadId: `warm-${index}`, runId: `warm-${index}` });
    const [item] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 30_000 });
    if (item) await store.ack({ dispatchId: item.dispatchId, claimToken: item.claimToken ?? '' });
  }
  await admin.query('SELECT pg_stat_statements_reset()');
  let started = performance.now();
  for (let index = 0; index < N; index += 1) {
    await store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` });
    const [item] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 30_000 });
    if (item) await store.ack({ dispatchId: item.dispatchId, claimToken: item.claimToken ?? '' });
  }
  console.log(
    `mailbox: ${(((performance.now() - started) * 1000) / N).toFixed(0)} µs per cycle (client wall)`,
  );
  await report('mailbox');
  await store.close();

  const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  await pool.query(
    `CREATE TABLE jobs (id bigserial PRIMARY KEY, status text NOT NULL, payload text NOT NULL)`,
  );
  await pool.query(`CREATE INDEX ON jobs (id) WHERE status = 'queued'`);
  await admin.query('SELECT pg_stat_statements_reset()');
  started = performance.now();
  for (let index = 0; index < N; index += 1) {
    await pool.query({
      name: 'e',
      text: `INSERT INTO jobs (status, payload) VALUES ('queued', $1)`,
      values: [`run-${index}`],
    });
    const { rows } = await pool.query({
      name: 'c',
      text: `UPDATE jobs SET status = 'claimed' WHERE id IN (
        SELECT id FROM jobs WHERE status = 'queued' ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING id`,
      values: [1],
    });
    await pool.query({
      name: 'a',
      text: `UPDATE jobs SET status = 'acked' WHERE id = $1`,
      values: [rows[0]?.id],
    });
  }
  console.log(
    `\nfloor: ${(((performance.now() - started) * 1000) / N).toFixed(0)} µs per cycle (client wall)`,
  );
  await report('SKIP LOCKED floor');
  await pool.end();
} finally {
  await admin.end();
  await postgres.stop();
}
