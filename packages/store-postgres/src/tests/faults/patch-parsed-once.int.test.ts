import { AwakenError } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { type FailNthWrite, installFailNthWrite } from '../../../test-support/fail-nth-write';
import { adminPool, dropSchema, freezeClock, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const TABLES = ['mailbox_threads', 'dispatches', 'requests'];
// a response whose text holds what a textual patch would take for the document's own fields, and a
// NUL the JSON parser refuses (json_patch hides it)
const TRICKY = 'said {"status":"queued","claimToken":"x"} and "leaseUntil": 1 \\ \u0000 é \u2028 end';

// Migration 13: mb_claim and mb_settle patch the dispatch document with json_patch_members (the
// document parsed once, the patch appended as it is). Its result is checked byte for byte against
// json_patch's; the claim and the settle writes are checked through it with each reply lost after
// its commit and against a database that fails the N-th row write.
describe('the claim and settle patches of migration 13', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  let failing: FailNthWrite;
  let s = '';
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('patch13'), testClock: true });
    await stores.migrate();
    s = `"${stores.schema}"`;
    failing = await installFailNthWrite(admin, stores.schema, TABLES);
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  async function patched(
    doc: string,
    members: string,
    keys: string[],
  ): Promise<{ fast: string; slow: string }> {
    const { rows } = await admin.query<{ fast: string; slow: string }>(
      `SELECT ${s}.json_patch_members($1, $2, $3) AS fast, ${s}.json_patch($1, '{' || $2 || '}', $3) AS slow`,
      [doc, members, keys],
    );
    return { fast: rows[0]?.fast ?? '', slow: rows[0]?.slow ?? '' };
  }

  it('gives json_patch’s text: member order, nested look-alikes, escapes, NULs, drops', async () => {
    const nested = JSON.stringify({
      dispatchId: 'd',
      status: 'claimed',
      runResponse: TRICKY,
      nested: { status: 'queued', list: [{ leaseUntil: 5 }, null, 1.5e-7, 'a"b'] },
      claimToken: 't',
      leaseUntil: 9,
      empty: {},
      nothing: null,
    });
    const cases: [string, string, string[]][] = [
      [nested, '"status":"acked","updatedAt":12', ['status', 'updatedAt', 'claimToken', 'leaseUntil']],
      [nested, '"status":"claimed","claimToken":"u","leaseUntil":3', ['status', 'claimToken', 'leaseUntil']],
      [nested, `"runError":${JSON.stringify(TRICKY)},"status":"dead_letter"`, ['runError', 'status', 'gone']],
      [
        JSON.stringify({ a: 'plain', status: 'queued' }),
        `"claimedBy":${JSON.stringify('w\u0000"')}`,
        ['claimedBy'],
      ],
      [JSON.stringify({ a: 1 }), '"status":"x"', ['status']],
      ['{}', '"status":"x"', ['status']],
      [JSON.stringify({ status: 'queued', b: [1, { c: '\u0000' }] }), '"b":2', ['b', 'status']],
    ];
    for (const [doc, members, keys] of cases) {
      const { fast, slow } = await patched(doc, members, keys);
      expect(fast).toBe(slow);
      expect(JSON.parse(fast)).toEqual({
        ...Object.fromEntries(Object.entries(JSON.parse(doc) as object).filter(([k]) => !keys.includes(k))),
        ...(JSON.parse(`{${members}}`) as object),
      });
    }
    // the nested look-alikes are left as they were
    const { fast } = await patched(nested, '"status":"acked"', ['status']);
    expect((JSON.parse(fast) as { nested: unknown }).nested).toEqual({
      status: 'queued',
      list: [{ leaseUntil: 5 }, null, 1.5e-7, 'a"b'],
    });
  });

  async function storedDoc(dispatchId: string): Promise<string> {
    const { rows } = await admin.query<{ doc: string }>(
      `SELECT doc FROM ${s}.dispatches WHERE dispatch_id = $1`,
      [dispatchId],
    );
    return rows[0]?.doc ?? '';
  }

  // the claim, a nack and an ack through each path: the common one, and json_patch's (a NUL escape)
  it.each([
    ['without', 'w', TRICKY.replace('\u0000', '')],
    ['with', 'w\u0000"', TRICKY],
  ])(
    'stores and returns the claim’s and each settle’s document as json_patch wrote them, %s a NUL',
    async (_, worker, text) => {
      const { mailbox } = stores;
      await freezeClock(admin, stores.schema, 4_000_000);
      const threadId = `patch-docs-${worker.length}`;
      const queued = await mailbox.enqueue({ threadId, runId: 'p1', maxAttempts: 3 });
      const expected = async (before: string, patch: string, drop: string[]) =>
        (
          await admin.query<{ doc: string }>(`SELECT ${s}.json_patch($1, $2, $3) AS doc`, [
            before,
            patch,
            drop,
          ])
        ).rows[0]?.doc;
      const before = await storedDoc(queued.dispatchId);
      const [claimed] = await mailbox.claim({ workerId: worker, limit: 1, leaseMs: 1_000 });
      const token = claimed?.claimToken ?? '';
      expect(await storedDoc(queued.dispatchId)).toBe(
        await expected(
          before,
          `{"status":"claimed","updatedAt":4000000,"claimToken":${JSON.stringify(token)},"claimedBy":${JSON.stringify(worker)},"leaseUntil":4001000}`,
          [],
        ),
      );
      expect(claimed).toEqual(await mailbox.loadDispatch(queued.dispatchId));
      // a nack back to the queue, then a claim and an ack with a result
      const beforeNack = await storedDoc(queued.dispatchId);
      const nacked = await mailbox.nack({
        dispatchId: queued.dispatchId,
        claimToken: token,
        error: text,
        retryAt: 4_000_000,
      });
      expect(nacked).toMatchObject({ status: 'queued', attemptCount: 1, lastError: text });
      expect(nacked).not.toHaveProperty('claimToken');
      expect(await storedDoc(queued.dispatchId)).toBe(
        await expected(
          beforeNack,
          `{"lastError":${JSON.stringify(text)},"attemptCount":1,"availableAt":4000000,"status":"queued","updatedAt":4000000}`,
          ['claimToken', 'leaseUntil'],
        ),
      );
      const [again] = await mailbox.claim({ workerId: worker, limit: 1, leaseMs: 1_000 });
      const beforeAck = await storedDoc(queued.dispatchId);
      const result = { runId: 'p1', dispatchInstanceId: 'i1', status: 'done' as const, response: text };
      const acked = await mailbox.ack({
        dispatchId: queued.dispatchId,
        claimToken: again?.claimToken ?? '',
        result,
      });
      expect(acked).toMatchObject({ status: 'acked', runResponse: text, lastError: text, attemptCount: 1 });
      expect(acked).not.toHaveProperty('claimToken');
      expect(acked).not.toHaveProperty('leaseUntil');
      expect(await storedDoc(queued.dispatchId)).toBe(
        await expected(
          beforeAck,
          `{"dispatchInstanceId":"i1","runStatus":"done","runResponse":${JSON.stringify(text)},"status":"acked","updatedAt":4000000,"completedAt":4000000}`,
          ['termination', 'runResponse', 'runError', 'claimToken', 'leaseUntil'],
        ),
      );
      expect(await mailbox.loadDispatch(queued.dispatchId)).toEqual(acked);
    },
  );

  async function withLostReply<T>(call: () => Promise<T>): Promise<T> {
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const result = await call();
    expect(proxy.dropped).toBe(before + 1);
    return result;
  }

  it('applies a claim, an extend, a nack and an ack once each when their replies are lost after the commit', async () => {
    const { mailbox } = stores;
    await freezeClock(admin, stores.schema, 6_000_000);
    const queued = await mailbox.enqueue({ threadId: 'patch-lost', runId: 'l1' });
    const [claimed] = await withLostReply(() => mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 }));
    expect(claimed?.dispatchId).toBe(queued.dispatchId);
    expect(await mailbox.loadDispatch(queued.dispatchId)).toEqual(claimed);
    const token = claimed?.claimToken ?? '';
    const extended = await withLostReply(() =>
      mailbox.extendLease({ dispatchId: queued.dispatchId, claimToken: token, leaseMs: 90_000 }),
    );
    expect(extended).toMatchObject({ status: 'claimed', claimToken: token, leaseUntil: 6_090_000 });
    const nacked = await withLostReply(() =>
      mailbox.nack({ dispatchId: queued.dispatchId, claimToken: token, error: 'once', retryAt: 6_000_000 }),
    );
    // applied once: one attempt counted
    expect(nacked).toMatchObject({ status: 'queued', attemptCount: 1 });
    expect(await mailbox.loadDispatch(queued.dispatchId)).toEqual(nacked);
    const [again] = await mailbox.claim({ workerId: 'w', limit: 5, leaseMs: 60_000 });
    const acked = await withLostReply(() =>
      mailbox.ack({
        dispatchId: queued.dispatchId,
        claimToken: again?.claimToken ?? '',
        result: { runId: 'l1', dispatchInstanceId: 'i', status: 'done', response: TRICKY },
      }),
    );
    expect(acked).toMatchObject({ status: 'acked', attemptCount: 1, runResponse: TRICKY });
    expect(await mailbox.loadDispatch(queued.dispatchId)).toEqual(acked);
  });

  const snapshot = (): Promise<string> => failing.snapshot();

  /** Runs `call` with the N-th row write failing, N = 1, 2, …, until it succeeds; returns how many failed. */
  async function failEachWrite<T>(call: () => Promise<T>): Promise<number> {
    let failed = 0;
    for (let nth = 1; nth < 20; nth += 1) {
      const before = await snapshot();
      await failing.failAt(nth);
      try {
        await call();
        return failed;
      } catch (error) {
        expect(AwakenError.hasCode(error, 'store_failure'), String(error)).toBe(true);
        expect((error as Error).message).toContain('injected failure');
        expect(await snapshot()).toBe(before);
        failed += 1;
      } finally {
        await failing.failAt(null);
      }
    }
    throw new Error('the call never succeeded');
  }

  it('writes a claim, an extend, a nack and an ack all or nothing when the N-th row write fails', async () => {
    const { mailbox } = stores;
    await freezeClock(admin, stores.schema, 7_000_000);
    const { dispatchId } = await mailbox.enqueue({ threadId: 'patch-nth', runId: 'n1' });
    let token = '';
    const claim = async () => {
      const [claimed] = await mailbox.claim({ workerId: 'w', limit: 1, leaseMs: 60_000 });
      expect(claimed?.dispatchId).toBe(dispatchId);
      token = claimed?.claimToken ?? '';
    };
    // the dispatch, the thread row and the reply record
    expect(await failEachWrite(claim)).toBe(3);
    // the dispatch and the reply record
    expect(
      await failEachWrite(async () => {
        expect(await mailbox.extendLease({ dispatchId, claimToken: token, leaseMs: 90_000 })).toMatchObject({
          leaseUntil: 7_090_000,
        });
      }),
    ).toBe(2);
    // the dispatch, the thread row and the reply record
    expect(
      await failEachWrite(async () => {
        expect(
          await mailbox.nack({ dispatchId, claimToken: token, error: TRICKY, retryAt: 7_000_000 }),
        ).toMatchObject({
          status: 'queued',
          attemptCount: 1,
        });
      }),
    ).toBe(3);
    expect(await failEachWrite(claim)).toBe(3);
    expect(
      await failEachWrite(async () => {
        expect(
          await mailbox.ack({
            dispatchId,
            claimToken: token,
            result: { runId: 'n1', dispatchInstanceId: 'i', status: 'done', response: TRICKY },
          }),
        ).toMatchObject({ status: 'acked', runResponse: TRICKY });
      }),
    ).toBe(3);
  });
});
