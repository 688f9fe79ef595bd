import { MIGRATION_0001 } from './0001-initial';

/** One versioned step of the schema: applied once, in version order, never edited once released. */
export interface Migration {
  version: number;
  name: string;
  /** The SQL, given the quoted schema name. */
  sql(schema: string): string;
}

/** Every migration this package ships, oldest first. */
export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'initial', sql: MIGRATION_0001 }];
