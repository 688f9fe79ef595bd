import type { AwakenStores } from '@awaken/contract';
import { PgDb, type PostgresStoreOptions } from './internal/db';
import { PostgresMailboxStore } from './postgres-mailbox-store';
import { PostgresRunControlInbox } from './postgres-run-control-inbox';
import { PostgresRunEventLog } from './postgres-run-event-log';
import { PostgresThreadRunStore } from './postgres-thread-run-store';

export type CreatePostgresStoresOptions = PostgresStoreOptions;

/** The four stores on one pool and schema, and what it takes to run and stop them. */
export interface PostgresStores extends AwakenStores {
  threadRuns: PostgresThreadRunStore;
  mailbox: PostgresMailboxStore;
  eventLog: PostgresRunEventLog;
  inbox: PostgresRunControlInbox;
  /** The schema holding the tables. */
  readonly schema: string;
  /** Applies the migrations now (otherwise the first call does), so start-up fails fast. */
  migrate(): Promise<void>;
  /** Ends pending waits and the LISTEN connection; ends the pool only if the stores created it. */
  close(): Promise<void>;
}

/**
 * All four Awaken stores on PostgreSQL, sharing one pool, one schema (migrated once, under an
 * advisory lock), the database clock and one LISTEN connection. A finished run's control inbox is
 * dropped with its event log (`finish`'s `ttlMs`).
 */
export function createPostgresStores(options: CreatePostgresStoresOptions): PostgresStores {
  const db = new PgDb(options);
  const mailbox = new PostgresMailboxStore(options, db);
  const eventLog = new PostgresRunEventLog(options, db);
  return {
    threadRuns: new PostgresThreadRunStore(options, db),
    mailbox,
    eventLog,
    inbox: new PostgresRunControlInbox(options, db),
    schema: db.schema,
    migrate: () => db.ready(),
    async close() {
      await mailbox.close();
      await eventLog.close();
      await db.close();
    },
  };
}
