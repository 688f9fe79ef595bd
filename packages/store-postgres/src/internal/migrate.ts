import type { Pool } from 'pg';
import { MIGRATIONS } from '../migrations/index';

/**
 * Brings `schema` up to the latest migration, once, whoever else starts at the same moment: one
 * transaction under a transaction-scoped advisory lock keyed by the schema name creates the schema and
 * its `schema_migrations` table if missing and applies the missing versions in order (PostgreSQL DDL
 * is transactional, so a failed step leaves nothing half-applied). Returns the versions it applied.
 */
export async function migrate(pool: Pool, schema: string, quoted: string): Promise<number[]> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`awaken:migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>(
      `SELECT version FROM ${quoted}.schema_migrations`,
    );
    const done = new Set(rows.map((row) => Number(row.version)));
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql(quoted));
      await client.query(`INSERT INTO ${quoted}.schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
