import { AwakenError } from '@awaken/contract';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminPool, dropSchema, uniqueSchema } from '../../test-support/pg-harness';
import { PgDb } from './db';
import { inlineParameters } from './read-batch';

const url = inject('postgresUrl');
const admin = adminPool(url);
const db = new PgDb({ postgres: url, schema: uniqueSchema('reads') });

/** The messages the pool sent (each `pool.query` is one), with their text. */
const sent: string[] = [];
const query = db.pool.query.bind(db.pool);
db.pool.query = ((config: string | pg.QueryConfig, values?: unknown[]) => {
  sent.push(typeof config === 'string' ? config : config.text);
  return query(config as string, values);
}) as typeof db.pool.query;

beforeAll(async () => {
  await db.ready();
  await admin.query(
    `CREATE TABLE ${db.s}.cells (id text PRIMARY KEY, n bigint NOT NULL, tags text[] NOT NULL, on_ boolean)`,
  );
  await admin.query(
    `INSERT INTO ${db.s}.cells VALUES ('a', 1, '{x}', true), ($1, 2, $2, false), ('c', 3, '{}', NULL)`,
    [`it's a \\ "quoted" id ünïcode`, ['y', 'with "quote"', 'back\\slash', "o'k", 'a,b', 'NULL']],
  );
});
afterAll(async () => {
  await db.close();
  await dropSchema(admin, db.schema);
  await admin.end();
});

const byId = `SELECT id, n, tags, on_ FROM ${db.s}.cells WHERE id = $1`;

describe('PgDb.read: the reads of one tick in one message', () => {
  it('sends reads made side by side as one message, each answered with its own rows', async () => {
    sent.length = 0;
    const odd = `it's a \\ "quoted" id ünïcode`;
    const [a, quoted, none, listed] = await Promise.all([
      db.read(byId, ['a']),
      db.read(byId, [odd]),
      db.read(byId, ['missing']),
      db.read(`SELECT id FROM ${db.s}.cells WHERE n >= $1 AND n < $2 ORDER BY n LIMIT $3`, [2, 4, 10]),
    ]);
    expect(sent).toHaveLength(1); // one round trip for the four
    expect(a).toEqual([{ id: 'a', n: '1', tags: ['x'], on_: true }]);
    expect(quoted).toEqual([
      { id: odd, n: '2', tags: ['y', 'with "quote"', 'back\\slash', "o'k", 'a,b', 'NULL'], on_: false },
    ]);
    expect(none).toEqual([]);
    expect(listed).toEqual([{ id: odd }, { id: 'c' }]);
    // the same answers as each read alone (a named prepared statement per read)
    sent.length = 0;
    expect(await db.read(byId, [odd])).toEqual(quoted);
    expect(sent).toHaveLength(1);
  });

  it('inlines array, boolean and null parameters as node-postgres sends them', async () => {
    const tags = ['y', 'with "quote"', 'back\\slash', "o'k", 'a,b', 'NULL'];
    const [byTags, byFlag, byNull] = await Promise.all([
      db.read(`SELECT id FROM ${db.s}.cells WHERE tags = $1`, [tags]),
      db.read(`SELECT id FROM ${db.s}.cells WHERE on_ = $1`, [true]),
      db.read(`SELECT id FROM ${db.s}.cells WHERE on_ IS NOT DISTINCT FROM $1`, [null]),
    ]);
    expect(byTags).toEqual(await db.read(`SELECT id FROM ${db.s}.cells WHERE n = $1`, [2]));
    expect(byFlag).toEqual([{ id: 'a' }]);
    expect(byNull).toEqual([{ id: 'c' }]);
    // a value that has no plain text form is not inlined: that read goes alone
    expect(inlineParameters('SELECT $1', [{ a: 1 }])).toBeUndefined();
    expect(inlineParameters('SELECT $1, $10', ['x', 'y'])).toBeUndefined();
  });

  it('answers the others when one read of the message fails, and that one with its own error', async () => {
    sent.length = 0;
    const [good, bad, other] = await Promise.allSettled([
      db.read(byId, ['a']),
      db.read(`SELECT 1 / (n - $1) AS q FROM ${db.s}.cells WHERE id = 'a'`, [1]), // division by zero
      db.read(byId, ['c']),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: [{ id: 'a', n: '1', tags: ['x'], on_: true }] });
    expect(other).toEqual({ status: 'fulfilled', value: [{ id: 'c', n: '3', tags: [], on_: null }] });
    expect(bad.status).toBe('rejected');
    const error = (bad as PromiseRejectedResult).reason;
    expect(AwakenError.hasCode(error, 'store_failure')).toBe(true);
    expect(String(error)).toContain('division by zero');
    expect(sent).toHaveLength(4); // the message, then each read again alone
  });
});
