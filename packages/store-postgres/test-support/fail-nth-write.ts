import type pg from 'pg';

/**
 * A schema whose listed tables fail their N-th row write (insert, update or delete) from now on: a
 * trigger counts the writes down and raises at zero, so the store's transaction rolls back there.
 */
export interface FailNthWrite {
  /** Fail the `nth` row write from now on (1 = the next one); `null` lets every write through. */
  failAt(nth: number | null): Promise<void>;
  /** Every row of the listed tables, as text, in a stable order: equal snapshots, equal tables. */
  snapshot(): Promise<string>;
}

/** Installs the failing-write trigger on `tables` of `schema` (initially letting every write through). */
export async function installFailNthWrite(
  admin: pg.Pool,
  schema: string,
  tables: readonly string[],
): Promise<FailNthWrite> {
  const s = `"${schema}"`;
  await admin.query(`CREATE TABLE ${s}.fail_plan (left_writes integer)`);
  await admin.query(`INSERT INTO ${s}.fail_plan VALUES (NULL)`);
  await admin.query(`CREATE FUNCTION ${s}.fail_nth() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE v_left integer;
    BEGIN
      UPDATE ${s}.fail_plan SET left_writes = left_writes - 1 RETURNING left_writes INTO v_left;
      IF v_left = 0 THEN RAISE EXCEPTION 'injected failure of a write to %', TG_TABLE_NAME; END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $fn$`);
  for (const table of tables) {
    await admin.query(
      `CREATE TRIGGER fail_nth BEFORE INSERT OR UPDATE OR DELETE ON ${s}.${table} FOR EACH ROW EXECUTE FUNCTION ${s}.fail_nth()`,
    );
  }
  return {
    async failAt(nth) {
      await admin.query(`UPDATE ${s}.fail_plan SET left_writes = $1`, [nth]);
    },
    async snapshot() {
      const parts: string[] = [];
      for (const table of tables) {
        const { rows } = await admin.query<{ rows: string | null }>(
          `SELECT json_agg(t ORDER BY t::text)::text AS rows FROM ${s}.${table} t`,
        );
        parts.push(`${table}: ${rows[0]?.rows ?? '[]'}`);
      }
      return parts.join('\n');
    },
  };
}
