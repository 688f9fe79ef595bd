import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { PgDb } from '../src/internal/db';

/** What every Postgres store exposes for the test harnesses. */
interface PgStore {
  readonly db: PgDb;
  close(): Promise<void>;
}

/** A fresh schema name per test, so tests share one server without seeing each other's rows. */
export function uniqueSchema(label = 't'): string {
  return `${label}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** One small pool per test file for the harness's own statements (clock, clean-up). */
export function adminPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  return pool;
}

export async function dropSchema(admin: pg.Pool, schema: string): Promise<void> {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** Freezes a test-clock store's clock at the database's time (see `testClock`). */
export async function freezeClock(admin: pg.Pool, schema: string, at?: number): Promise<void> {
  await admin.query(
    `INSERT INTO "${schema}".test_clock (ms) VALUES (coalesce($1, (floor(extract(epoch from clock_timestamp()) * 1000))::bigint))
     ON CONFLICT (singleton) DO UPDATE SET ms = EXCLUDED.ms`,
    [at ?? null],
  );
}

/** Moves a frozen test clock forward by `ms`. */
export async function advanceClock(admin: pg.Pool, schema: string, ms: number): Promise<void> {
  await admin.query(`UPDATE "${schema}".test_clock SET ms = ms + $1`, [Math.round(ms)]);
}

/**
 * The conformance harness parts every Postgres store shares: a schema per test (migrated by the
 * store), peers that open their own pool on the same schema (as another process would), the schema
 * dropped afterwards.
 */
export function pgHarnessParts<T extends PgStore>(
  url: string,
  admin: pg.Pool,
  open: (options: { postgres: string; schema: string; testClock?: boolean }) => T,
) {
  return {
    async create(): Promise<T> {
      const store = open({ postgres: url, schema: uniqueSchema() });
      await store.db.ready();
      return store;
    },
    async destroy(store: T): Promise<void> {
      await store.close();
      await dropSchema(admin, store.db.schema);
    },
    peers: {
      async connect(store: T): Promise<T> {
        return open({ postgres: url, schema: store.db.schema });
      },
      async disconnect(peer: T): Promise<void> {
        await peer.close();
      },
    },
  };
}

const TABLES = [
  'requests',
  'test_clock',
  'messages',
  'runs',
  'threads',
  'dispatches',
  'mailbox_threads',
  'events',
  'event_logs',
  'controls',
  'inboxes',
];

/** Empties every table of a migrated schema (faster than a fresh schema: no DDL). */
export async function truncateSchema(admin: pg.Pool, schema: string): Promise<void> {
  await admin.query(`TRUNCATE ${TABLES.map((table) => `"${schema}".${table}`).join(', ')} RESTART IDENTITY`);
}
