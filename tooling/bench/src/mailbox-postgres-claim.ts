/**
 * The claim of migration 9 beside the claim it replaces (migration 5's `mb_claim`, restored in a
 * second schema from the frozen migration file), same database, interleaved rounds:
 *   `pnpm --filter @awaken/bench bench:mailbox-postgres-claim`
 * Each round and variant: a fresh schema, `BENCH_THREADS` idle threads seeded (rows of
 * `mailbox_threads` as a long-lived deployment has), then `BENCH_OPS` sequential enqueue → claim
 * (limit 1) → ack cycles with no vacuum in between (the dead entries a queue leaves behind). Reports
 * the client's µs per cycle and the server's µs per claim (pg_stat_statements).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PostgresMailboxStore } from '@awaken/store-postgres';
import { startPostgresServer } from '@awaken/testing';
import pg from 'pg';

const OPS = Number(process.env.BENCH_OPS ?? 1_000);
const THREADS = Number(process.env.BENCH_THREADS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Migration 5's mb_claim as `CREATE OR REPLACE` for schema `S` (the migration file is never edited). */
function migration5Claim(S: string): string {
  const file = fileURLToPath(
    new URL('../../../packages/store-postgres/src/migrations/0005-mailbox-functions.ts', import.meta.url),
  );
  const text = readFileSync(file, 'utf8');
  const placeholder = ['$', '{S}'].join(''); // the file's template placeholder, as text
  const start = text.indexOf(`CREATE FUNCTION ${placeholder}.mb_claim(`);
  const end = text.indexOf('$fn$;', start);
  if (start < 0 || end < 0) throw new Error('mb_claim not found in migration 5');
  // the template literal's escapes (\\\\ in the file) are not used by mb_claim
  return `CREATE OR REPLACE ${text.slice(start + 'CREATE '.length, end + '$fn$;'.length)}`.replaceAll(
    placeholder,
    S,
  );
}

const postgres = await startPostgresServer({
  settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'top' },
});
const admin = new pg.Client({ connectionString: postgres.url });
await admin.connect();
await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
const results: Record<string, { wall: number[]; claim: number[] }> = {};
try {
  for (let round = 1; round <= ROUNDS; round += 1) {
    // the order alternates round by round (the second of a round runs beside the first's autovacuum)
    const variants = ['migration 5 claim', 'migration 9 claim'];
    for (const variant of round % 2 === 1 ? variants : variants.reverse()) {
      const schema = `claim_${round}_${variant.includes('5') ? 5 : 9}`;
      const store = new PostgresMailboxStore({ postgres: postgres.url, schema });
      await store.db.ready();
      if (variant.includes('5')) await admin.query(migration5Claim(`"${schema}"`));
      await admin.query(
        `INSERT INTO "${schema}".mailbox_threads (thread_id) SELECT 'idle-' || n FROM generate_series(1, $1) n`,
        [THREADS],
      );
      for (let index = 0; index < 20; index += 1) {
        await store.enqueue({ threadId: `warm-${index}`, runId: `warm-${index}` });
        const [item] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 30_000 });
        if (item) await store.ack({ dispatchId: item.dispatchId, claimToken: item.claimToken ?? '' });
      }
      await admin.query('SELECT pg_stat_statements_reset()');
      const started = performance.now();
      for (let index = 0; index < OPS; index += 1) {
        await store.enqueue({ threadId: `thread-${index}`, runId: `run-${index}` });
        const [item] = await store.claim({ workerId: 'w', limit: 1, leaseMs: 30_000 });
        if (item === undefined) throw new Error('claim found nothing');
        await store.ack({ dispatchId: item.dispatchId, claimToken: item.claimToken ?? '' });
      }
      const wall = ((performance.now() - started) * 1000) / OPS;
      const { rows } = await admin.query<{ mean: number }>(
        `SELECT mean_exec_time AS mean FROM pg_stat_statements WHERE query LIKE '%mb_claim(%'`,
      );
      const claim = (rows[0]?.mean ?? 0) * 1000;
      const entry = results[variant] ?? { wall: [], claim: [] };
      entry.wall.push(wall);
      entry.claim.push(claim);
      results[variant] = entry;
      console.log(
        `round ${round} ${variant}: ${wall.toFixed(0)} µs per cycle, claim ${claim.toFixed(0)} µs (server)`,
      );
      await store.close();
    }
  }
} finally {
  await admin.end();
  await postgres.stop();
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
for (const [variant, { wall, claim }] of Object.entries(results))
  console.log(
    `${variant}: median ${median(wall).toFixed(0)} µs per cycle, claim ${median(claim).toFixed(0)} µs (server)`,
  );
