import { MIGRATION_0001 } from './0001-initial';
import { MIGRATION_0002 } from './0002-runs-by-status';
import { MIGRATION_0003 } from './0003-threads-by-write';
import { MIGRATION_0004 } from './0004-dispatches-by-status';
import { MIGRATION_0005 } from './0005-mailbox-functions';
import { MIGRATION_0006 } from './0006-run-write-functions';
import { MIGRATION_0007 } from './0007-thread-branches';
import { MIGRATION_0008 } from './0008-thread-inbox-functions';
import { MIGRATION_0009 } from './0009-claim-by-key';
import { MIGRATION_0010 } from './0010-clock-planned-once';
import { MIGRATION_0011 } from './0011-acquire-with-fence';
import { MIGRATION_0012 } from './0012-run-write-end';
import { MIGRATION_0013 } from './0013-patch-parsed-once';

/** One versioned step of the schema: applied once, in version order, never edited once released. */
export interface Migration {
  version: number;
  name: string;
  /** The SQL, given the quoted schema name. */
  sql(schema: string): string;
}

/** Every migration this package ships, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: MIGRATION_0001 },
  { version: 2, name: 'runs-by-status', sql: MIGRATION_0002 },
  { version: 3, name: 'threads-by-write', sql: MIGRATION_0003 },
  { version: 4, name: 'dispatches-by-status', sql: MIGRATION_0004 },
  { version: 5, name: 'mailbox-functions', sql: MIGRATION_0005 },
  { version: 6, name: 'run-write-functions', sql: MIGRATION_0006 },
  { version: 7, name: 'thread-branches', sql: MIGRATION_0007 },
  { version: 8, name: 'thread-inbox-functions', sql: MIGRATION_0008 },
  { version: 9, name: 'claim-by-key', sql: MIGRATION_0009 },
  { version: 10, name: 'clock-planned-once', sql: MIGRATION_0010 },
  { version: 11, name: 'acquire-with-fence', sql: MIGRATION_0011 },
  { version: 12, name: 'run-write-end', sql: MIGRATION_0012 },
  { version: 13, name: 'patch-parsed-once', sql: MIGRATION_0013 },
];
