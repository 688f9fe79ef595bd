/**
 * EXPLAIN (ANALYZE) of the Postgres stores' hot statements on a realistic table: 20,000 dispatches
 * (10,000 queued over 2,000 threads, 10,000 acked), 200 runs × 100 events. Prints Markdown (the
 * plans quoted in packages/store-postgres/README.md). Starts its own server (initdb): needs
 * PostgreSQL's binaries, as the tests do.
 *   pnpm --filter @awaken/bench bench:postgres-explain
 */
import { createPostgresStores } from '@awaken/store-postgres';
import { startPostgresServer } from '@awaken/testing';
import pg from 'pg';

const server = await startPostgresServer();
const pool = new pg.Pool({ connectionString: server.url });
const stores = createPostgresStores({ postgres: pool, schema: 'awaken' });
try {
  await stores.migrate();
  const now = Date.now();
  await pool.query(
    `INSERT INTO awaken.mailbox_threads (thread_id) SELECT 'thread-' || n FROM generate_series(0, 1999) n`,
  );
  await pool.query(
    `INSERT INTO awaken.dispatches (dispatch_id, thread_id, status, priority, available_at, updated_at, doc)
     SELECT 'd-' || n, 'thread-' || (n % 2000), CASE WHEN n < 10000 THEN 'queued' ELSE 'acked' END, 128, $1, $1, '{}'
     FROM generate_series(0, 19999) n`,
    [now],
  );
  await pool.query(
    `INSERT INTO awaken.event_logs (run_id, last_seq) SELECT 'run-' || n, 100 FROM generate_series(0, 199) n`,
  );
  await pool.query(
    `INSERT INTO awaken.events (run_id, seq, doc) SELECT 'run-' || (n / 100), n % 100 + 1, '{}' FROM generate_series(0, 19999) n`,
  );
  await pool.query('ANALYZE');
  const plans: [string, string, unknown[]][] = [
    [
      'claim: lock up to `limit` claimable threads in claim order (SKIP LOCKED)',
      `SELECT t.thread_id FROM awaken.mailbox_threads t
       JOIN (
         SELECT DISTINCT ON (thread_id) thread_id, priority, seq FROM (
           SELECT d.thread_id, d.priority, d.seq FROM awaken.dispatches d
           WHERE d.status = 'queued' AND d.available_at <= $1
             AND NOT EXISTS (SELECT 1 FROM awaken.mailbox_threads c WHERE c.thread_id = d.thread_id AND c.claimed_id IS NOT NULL)
           ORDER BY d.priority, d.seq LIMIT 64) due
         ORDER BY thread_id, priority, seq) heads ON heads.thread_id = t.thread_id
       WHERE t.claimed_id IS NULL ORDER BY heads.priority, heads.seq LIMIT 10
       FOR UPDATE OF t SKIP LOCKED`,
      [now],
    ],
    [
      'claim: the head of each locked thread',
      `SELECT * FROM (
         SELECT DISTINCT ON (thread_id) dispatch_id, thread_id, doc, priority, seq FROM awaken.dispatches
         WHERE thread_id = ANY($1) AND status = 'queued' AND available_at <= $2
         ORDER BY thread_id, priority, seq) heads
       ORDER BY priority, seq LIMIT 10`,
      [['thread-1', 'thread-2', 'thread-3'], now],
    ],
    [
      'ack: lock the thread of the dispatch',
      `SELECT epoch, claimed_id FROM awaken.mailbox_threads
       WHERE thread_id = (SELECT thread_id FROM awaken.dispatches WHERE dispatch_id = $1) FOR UPDATE`,
      ['d-42'],
    ],
    [
      'ack: save the dispatch, free its thread, wake a worker if the thread has queued work',
      `WITH saved AS (
         UPDATE awaken.dispatches SET status = 'acked', available_at = $3, lease_until = NULL, updated_at = $3, doc = '{}'
         WHERE dispatch_id = $1 RETURNING dispatch_id),
       freed AS (
         UPDATE awaken.mailbox_threads SET claimed_id = NULL WHERE thread_id = $2 AND claimed_id = $1 RETURNING thread_id)
       SELECT pg_notify('awaken.work', '') WHERE EXISTS (
         SELECT 1 FROM awaken.dispatches WHERE thread_id = $2 AND status = 'queued' AND dispatch_id <> $1)`,
      ['d-42', 'thread-42', now],
    ],
    [
      'tail / read: the events after a seq',
      `SELECT e.doc, l.expires_at IS NOT NULL AS finished FROM awaken.event_logs l
       LEFT JOIN LATERAL (SELECT doc FROM awaken.events e WHERE e.run_id = l.run_id AND e.seq > $2 ORDER BY e.seq LIMIT $3) e ON true
       WHERE l.run_id = $1 AND (l.expires_at IS NULL OR l.expires_at > $4)`,
      ['run-7', 90, 100, now],
    ],
  ];
  const out = ['# EXPLAIN of the Postgres stores’ hot statements', ''];
  out.push(
    '20,000 dispatches (10,000 queued over 2,000 threads), 200 runs × 100 events; `EXPLAIN (ANALYZE, COSTS OFF)`, inside a rolled-back transaction.',
    '',
  );
  for (const [title, sql, params] of plans) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`,
        params,
      );
      await client.query('ROLLBACK');
      out.push(`## ${title}`, '', '```', ...rows.map((row) => String(row['QUERY PLAN'])), '```', '');
    } finally {
      client.release();
    }
  }
  console.log(out.join('\n'));
} finally {
  await stores.close();
  await pool.end();
  await server.stop();
}
