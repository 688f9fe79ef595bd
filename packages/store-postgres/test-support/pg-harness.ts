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
 * The conformance harness parts every Postgres store shares: the store clock frozen in the schema's
 * test_clock table (lease and expiry boundaries tested to the millisecond, no waiting), a schema per test (migrated once, then
 * emptied and reused by the next test of the file: DDL per test would cost more than the test),
 * peers that open their own pool on the same schema (as another process would); `dropAll` drops the
 * schemas after the file.
 */
export function pgHarnessParts<T extends PgStore>(
  url: string,
  admin: pg.Pool,
  open: (options: { postgres: string; schema: string; testClock: boolean }) => T,
) {
  const free: string[] = [];
  const made: string[] = [];
  return {
    /** A fresh store whose clock is frozen in its schema's test_clock (moved by `clock.advance`). */
    async create(): Promise<T> {
      const reused = free.pop();
      const schema = reused ?? uniqueSchema();
      if (reused === undefined) made.push(schema);
      const store = open({ postgres: url, schema, testClock: true });
      await store.db.ready();
      await freezeClock(admin, schema);
      return store;
    },
    clock: {
      advance: (store: T, ms: number) => advanceClock(admin, store.db.schema, ms),
    },
    async destroy(store: T): Promise<void> {
      await store.close();
      await emptySchema(admin, store.db.schema);
      free.push(store.db.schema);
    },
    peers: {
      async connect(store: T): Promise<T> {
        return open({ postgres: url, schema: store.db.schema, testClock: true });
      },
      async disconnect(peer: T): Promise<void> {
        await peer.close();
      },
    },
    async dropAll(): Promise<void> {
      for (const schema of made.splice(0)) await dropSchema(admin, schema);
      free.length = 0;
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

/** Empties every table of a migrated schema (a DELETE each: far cheaper than DDL or TRUNCATE on small tables). */
export async function emptySchema(admin: pg.Pool, schema: string): Promise<void> {
  await admin.query(TABLES.map((table) => `DELETE FROM "${schema}".${table}`).join('; '));
}
