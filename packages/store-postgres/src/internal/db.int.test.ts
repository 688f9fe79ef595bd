import { AwakenError } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminPool, dropSchema, uniqueSchema } from '../../test-support/pg-harness';
import { PgDb } from './db';

const url = inject('postgresUrl');
const admin = adminPool(url);
const db = new PgDb({ postgres: url, schema: uniqueSchema('tx') });
beforeAll(async () => {
  await db.ready();
  await db.pool.query(`CREATE TABLE ${db.s}.cells (id text PRIMARY KEY, n integer NOT NULL)`);
  await db.pool.query(`INSERT INTO ${db.s}.cells VALUES ('a', 0), ('b', 0)`);
});
afterAll(async () => {
  await db.close();
  await dropSchema(admin, db.schema);
  await admin.end();
});

describe('PgDb.mutate', () => {
  it('runs a transaction again when PostgreSQL breaks a real deadlock, and both writers succeed once', async () => {
    const attempts = { ab: 0, ba: 0 };
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothLocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writer = (first: 'a' | 'b', second: 'a' | 'b', name: 'ab' | 'ba') =>
      db.mutate(async (tx) => {
        attempts[name] += 1;
        await tx.query(`UPDATE ${db.s}.cells SET n = n + 1 WHERE id = $1`, [first]);
        if (attempts[name] === 1) {
          // the first attempts meet here, each holding one row: the second UPDATEs deadlock
          arrived += 1;
          if (arrived === 2) release();
          await bothLocked;
        }
        await tx.query(`UPDATE ${db.s}.cells SET n = n + 1 WHERE id = $1`, [second]);
        return name;
      });
    expect(await Promise.all([writer('a', 'b', 'ab'), writer('b', 'a', 'ba')])).toEqual(['ab', 'ba']);
    expect(attempts.ab + attempts.ba).toBe(3); // exactly one was chosen as the victim and ran again
    const { rows } = await db.pool.query(`SELECT id, n FROM ${db.s}.cells ORDER BY id`);
    expect(rows).toEqual([
      { id: 'a', n: 2 },
      { id: 'b', n: 2 },
    ]); // the victim's first attempt left nothing
  }, 30_000);

  it('gives up after a bounded number of serialization failures with a retryable store_failure', async () => {
    let attempts = 0;
    const error = await db
      .mutate(async (tx) => {
        attempts += 1;
        await tx.query(`UPDATE ${db.s}.cells SET n = n + 100 WHERE id = 'a'`);
        // what PostgreSQL raises for a serialization failure
        await tx.query(`DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$`);
        return null;
      })
      .catch((caught: unknown) => caught);
    expect(AwakenError.hasCode(error, 'store_failure')).toBe(true);
    expect((error as AwakenError).retryable).toBe(true);
    expect(attempts).toBe(6);
    const { rows } = await db.pool.query(`SELECT n FROM ${db.s}.cells WHERE id = 'a'`);
    expect(rows[0]?.n).toBe(2); // every attempt rolled back
  });
});
