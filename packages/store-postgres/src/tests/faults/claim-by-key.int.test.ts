import { AwakenError } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const TABLES = ['mailbox_threads', 'dispatches', 'requests'];

// mb_claim as migration 9 replaces it (threads locked by key, heads read by index probe): a claim of
// several dispatches under a lost reply, and against a database that fails its N-th row write.
describe('the claim of migration 9', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  let s = '';
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('claimkey') });
    await stores.migrate();
    s = `"${stores.schema}"`;
    await admin.query(`CREATE TABLE ${s}.fail_plan (left_writes integer)`);
    await admin.query(`INSERT INTO ${s}.fail_plan VALUES (NULL)`);
    await admin.query(`CREATE FUNCTION ${s}.fail_nth() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE v_left integer;
      BEGIN
        UPDATE ${s}.fail_plan SET left_writes = left_writes - 1 RETURNING left_writes INTO v_left;
        IF v_left = 0 THEN RAISE EXCEPTION 'injected failure of a write to %', TG_TABLE_NAME; END IF;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END $fn$`);
    for (const table of TABLES) {
      await admin.query(
        `CREATE TRIGGER fail_nth BEFORE INSERT OR UPDATE OR DELETE ON ${s}.${table} FOR EACH ROW EXECUTE FUNCTION ${s}.fail_nth()`,
      );
    }
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  /** Every row of the tables a claim writes, as text. */
  async function snapshot(): Promise<string> {
    const parts: string[] = [];
    for (const table of TABLES) {
      const { rows } = await admin.query<{ rows: string | null }>(
        `SELECT json_agg(t ORDER BY t::text)::text AS rows FROM ${s}.${table} t`,
      );
      parts.push(`${table}: ${rows[0]?.rows ?? '[]'}`);
    }
    return parts.join('\n');
  }

  it('claims the head of each free thread once when the reply is lost after the commit', async () => {
    const { mailbox } = stores;
    const first = await mailbox.enqueue({ threadId: 'lost-a', runId: 'a1' });
    await mailbox.enqueue({ threadId: 'lost-a', runId: 'a2' }); // behind a1 on its thread
    const second = await mailbox.enqueue({ threadId: 'lost-b', runId: 'b1' });
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const claimed = await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 });
    expect(proxy.dropped).toBe(before + 1);
    // one per thread, in claim order, each with the token the database holds
    expect(claimed.map((dispatch) => dispatch.dispatchId)).toEqual([first.dispatchId, second.dispatchId]);
    for (const dispatch of claimed) expect(await mailbox.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
    // the re-sent call was answered from its record: nothing else was claimed
    expect(await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 })).toEqual([]);
    for (const dispatch of claimed)
      await mailbox.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
    const [next] = await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 });
    expect(next).toMatchObject({ runId: 'a2', status: 'claimed' });
    await mailbox.ack({ dispatchId: next?.dispatchId ?? '', claimToken: next?.claimToken ?? '' });
  });

  it('a claim of several writes all or nothing when its N-th row write fails', async () => {
    const { mailbox } = stores;
    const ids: string[] = [];
    for (const thread of ['nth-a', 'nth-b', 'nth-c'])
      ids.push((await mailbox.enqueue({ threadId: thread, runId: `${thread}-run` })).dispatchId);
    let failed = 0;
    for (let nth = 1; nth < 50; nth += 1) {
      const before = await snapshot();
      await admin.query(`UPDATE ${s}.fail_plan SET left_writes = $1`, [nth]);
      try {
        const claimed = await mailbox.claim({ workerId: 'w', limit: 3, leaseMs: 60_000 });
        expect(claimed.map((dispatch) => dispatch.dispatchId)).toEqual(ids);
        break;
      } catch (error) {
        expect(AwakenError.hasCode(error, 'store_failure'), String(error)).toBe(true);
        expect((error as Error).message).toContain('injected failure');
        expect(await snapshot()).toBe(before);
        failed += 1;
      } finally {
        await admin.query(`UPDATE ${s}.fail_plan SET left_writes = NULL`);
      }
    }
    // three dispatches, three thread rows and the reply record: seven writes, each failed once
    expect(failed).toBe(7);
  });
});
