/**
 * The plans of the statements inside the Postgres mailbox's functions (migration 3), on a large
 * table: BENCH_EXPLAIN_ROWS dispatches (default 1,000,000: half acked, half queued over 20,000
 * threads), each function called through the store as a worker calls it. `auto_explain` (nested
 * statements, ANALYZE, sent to the client as NOTICEs) prints the plan each statement ran with, after
 * six warm-up calls (PL/pgSQL switches to its generic plan by then). Writes
 * results/postgres-explain-functions.md.
 *   pnpm --filter @awaken/bench bench:postgres-explain-functions
 */
import { writeFileSync } from 'node:fs';
import { PostgresMailboxStore } from '@awaken/store-postgres';
import { startPostgresServer } from '@awaken/testing';
import pg from 'pg';

const ROWS = Number(process.env.BENCH_EXPLAIN_ROWS ?? 1_000_000);
const THREADS = 20_000;

const server = await startPostgresServer();
const pool = new pg.Pool({ connectionString: server.url, max: 1 }); // one connection: the session that auto_explain is loaded in
pool.on('error', () => undefined);
const store = new PostgresMailboxStore({ postgres: pool, schema: 'awaken' });
const out = ['# EXPLAIN of the Postgres mailbox functions (statements inside PL/pgSQL)', ''];
try {
  await store.db.ready();
  const now = Date.now();
  await pool.query(
    `INSERT INTO awaken.mailbox_threads (thread_id) SELECT 'thread-' || n FROM generate_series(0, ${THREADS - 1}) n`,
  );
  await pool.query(
    `INSERT INTO awaken.dispatches (dispatch_id, thread_id, status, priority, available_at, updated_at, doc)
     SELECT 'd-' || n, 'thread-' || (n % ${THREADS}), s, 128, $1::bigint, $1::bigint,
       '{"dispatchId":"d-' || n || '","threadId":"thread-' || (n % ${THREADS}) || '","runId":"run-' || n
       || '","priority":128,"dispatchEpoch":0,"status":"' || s || '","availableAt":' || $1::bigint
       || ',"attemptCount":0,"maxAttempts":3,"createdAt":' || $1::bigint || ',"updatedAt":' || $1::bigint || '}'
     FROM generate_series(0, ${ROWS - 1}) n, LATERAL (SELECT CASE WHEN n < ${ROWS / 2} THEN 'acked' ELSE 'queued' END AS s) st`,
    [now],
  );
  await pool.query('VACUUM ANALYZE awaken.dispatches');
  await pool.query('VACUUM ANALYZE awaken.mailbox_threads');
  const notices: string[] = [];
  const client = await pool.connect();
  client.on('notice', (notice) => notices.push(String(notice.message)));
  await client.query(`LOAD 'auto_explain'`);
  client.release();
  const explain = async (title: string, call: () => Promise<unknown>) => {
    await pool.query(`SET auto_explain.log_min_duration = -1`);
    for (let warm = 0; warm < 6; warm += 1) await call();
    await pool.query(
      `SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
       SET auto_explain.log_analyze = on; SET auto_explain.log_timing = off; SET auto_explain.log_level = notice`,
    );
    notices.length = 0;
    await call();
    await pool.query(`SET auto_explain.log_min_duration = -1`);
    const plans = notices
      .map((text) => text.replace(/^duration: [0-9.]+ ms {2}plan:\n/, ''))
      .filter((text) => !/Query Text: (BEGIN|COMMIT|SELECT "awaken"\.mb_)/.test(text));
    out.push(`## ${title}`, '', '```', ...plans.flatMap((plan) => [plan, '']), '```', '');
  };
  let index = 0;
  const claimed: { dispatchId: string; claimToken: string }[] = [];
  await explain('enqueue', () =>
    store.enqueue({ threadId: `thread-${index++ % THREADS}`, runId: `new-${index}` }),
  );
  await explain('claim (limit 10)', async () => {
    for (const d of await store.claim({ workerId: 'w', limit: 10, leaseMs: 60_000 })) {
      claimed.push({ dispatchId: d.dispatchId, claimToken: d.claimToken ?? '' });
    }
  });
  await explain('ack', () => store.ack(claimed.pop() ?? { dispatchId: 'none', claimToken: '' }));
  await explain('extendLease', async () => {
    const proof = claimed.at(-1) ?? { dispatchId: 'none', claimToken: '' };
    await store.extendLease({ ...proof, leaseMs: 60_000 });
  });
  await explain('interrupt', () => store.interrupt(`thread-${index++ % THREADS}`));
  out.splice(
    2,
    0,
    `${ROWS.toLocaleString('en')} dispatches (half acked, half queued over ${THREADS.toLocaleString('en')} threads), \`VACUUM ANALYZE\`d; auto_explain (ANALYZE, nested statements, timing off) of the seventh call of each operation. Command: \`pnpm --filter @awaken/bench bench:postgres-explain-functions\` (BENCH_EXPLAIN_ROWS=${ROWS}).`,
    '',
  );
  writeFileSync(new URL('../results/postgres-explain-functions.md', import.meta.url), out.join('\n'));
  console.log(out.join('\n'));
} finally {
  await store.close();
  await pool.end();
  await server.stop();
}
