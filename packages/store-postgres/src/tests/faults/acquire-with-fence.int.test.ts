import { AwakenError, type AcquireWithFence, type RunRecord, jointAcquirer } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { type FailNthWrite, installFailNthWrite } from '../../../test-support/fail-nth-write';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const TABLES = ['runs', 'event_logs', 'requests'];

function runOf(runId: string, threadId: string): RunRecord {
  return {
    runId,
    threadId,
    agentId: 'agent',
    origin: 'user',
    status: 'created',
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    state: {},
    version: 0,
    createdAt: 1,
    updatedAt: 1,
  };
}

// tr_lease_fence (migration 11): a lease, the log's fence and the run's record in one call, under a
// lost reply and against a database that fails its N-th row write.
describe('the joint acquisition of migration 11', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  let failing: FailNthWrite;
  let joint: AcquireWithFence;
  let s = '';

  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('acqfence') });
    await stores.migrate();
    const found = jointAcquirer(stores.threadRuns, stores.eventLog);
    if (!found) throw new Error('no joint acquisition for the bundle');
    joint = found;
    s = `"${stores.schema}"`;
    failing = await installFailNthWrite(admin, stores.schema, TABLES);
  });

  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  const snapshot = (): Promise<string> => failing.snapshot();

  async function newRun(name: string): Promise<RunRecord> {
    await stores.threadRuns.createThread({ id: `${name}-thread` });
    return stores.threadRuns.createRun(runOf(`${name}-run`, `${name}-thread`));
  }

  it('takes one lease when the reply is lost after the commit', async () => {
    const run = await newRun('lost');
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const taken = await joint.acquireRunWithFence(run.runId, { owner: 'w', leaseMs: 60_000 });
    expect(proxy.dropped).toBe(before + 1);
    // the re-sent call was answered from its record: fence 1, not 2
    expect(taken).toMatchObject({ lease: { runId: run.runId, owner: 'w', fence: 1 }, lastSeq: 0, run });
    const { rows } = await admin.query(`SELECT fence, lease_owner FROM ${s}.runs WHERE run_id = $1`, [
      run.runId,
    ]);
    expect(rows[0]).toMatchObject({ fence: '1', lease_owner: 'w' });
    await expect(stores.eventLog.append(run.runId, [], { fence: 0 })).rejects.toMatchObject({
      code: 'stale_claim',
    });
    await expect(
      joint.acquireRunWithFence(run.runId, { owner: 'other', leaseMs: 60_000 }),
    ).rejects.toMatchObject({ code: 'run_busy' });
  });

  it('writes all or nothing when its N-th row write fails', async () => {
    const run = await newRun('nth');
    let failed = 0;
    for (let nth = 1; nth < 50; nth += 1) {
      const before = await snapshot();
      await failing.failAt(nth);
      try {
        const taken = await joint.acquireRunWithFence(run.runId, { owner: 'w', leaseMs: 60_000 });
        expect(taken.lease.fence).toBe(1);
        break;
      } catch (error) {
        expect(AwakenError.hasCode(error, 'store_failure'), String(error)).toBe(true);
        expect((error as Error).message).toContain('injected failure');
        expect(await snapshot()).toBe(before);
        failed += 1;
      } finally {
        await failing.failAt(null);
      }
    }
    // the run's lease, the log row inserted and its fence raised, the reply record: four writes
    expect(failed).toBe(4);
  });

  // Every run write (ev_append, then tr_checkpoint_at) locks the event log's row before the run's: a
  // writer still running on an expired lease, meeting this acquisition, must not deadlock with it
  // (PostgreSQL would break the cycle only after deadlock_timeout, a second by default).
  it.each([
    ['holds the log row', 'SELECT 1 FROM %s.event_logs WHERE run_id = $1 FOR UPDATE'],
    ['is inserting the log row', 'INSERT INTO %s.event_logs (run_id) VALUES ($1)'],
  ])('waits for a run writer that %s before it takes the run row', async (label, first) => {
    const run = await newRun(`order-${label.length}`);
    if (first.startsWith('SELECT')) {
      await admin.query(`INSERT INTO ${s}.event_logs (run_id) VALUES ($1)`, [run.runId]);
    }
    const writer = await admin.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(first.replace('%s', s), [run.runId]);
      const acquiring = joint.acquireRunWithFence(run.runId, { owner: 'w', leaseMs: 60_000 });
      // until the acquisition waits for a lock
      for (;;) {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND query LIKE '%tr_lease_fence%' AND query LIKE $1`,
          [`%${stores.schema}%`],
        );
        if ((rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      // the writer's next lock, the run's row (tr_checkpoint_at), is free
      const next = await writer
        .query(`SELECT 1 FROM ${s}.runs WHERE run_id = $1 FOR UPDATE NOWAIT`, [run.runId])
        .then(
          () => 'taken',
          (error: { code?: string }) => error.code,
        );
      await writer.query('COMMIT');
      expect(next).toBe('taken');
      await expect(acquiring).resolves.toMatchObject({ lease: { fence: 1 } });
    } finally {
      writer.release();
    }
  });

  it('grants one lease when two clients acquire the same run at once, jointly or not (60 trials)', async () => {
    const other = createPostgresStores({ postgres: url, schema: stores.schema });
    try {
      const otherJoint = jointAcquirer(other.threadRuns, other.eventLog);
      if (!otherJoint) throw new Error('no joint acquisition for the second client');
      for (let trial = 0; trial < 60; trial += 1) {
        const run = await newRun(`race-${trial}`);
        const attempts = await Promise.allSettled([
          joint.acquireRunWithFence(run.runId, { owner: 'a', leaseMs: 60_000 }),
          otherJoint.acquireRunWithFence(run.runId, { owner: 'b', leaseMs: 60_000 }),
          trial % 2 === 0
            ? other.threadRuns.acquireRun(run.runId, { owner: 'c', leaseMs: 60_000 })
            : otherJoint.acquireRunWithFence(run.runId, { owner: 'c', leaseMs: 60_000 }),
        ]);
        const granted = attempts.filter((attempt) => attempt.status === 'fulfilled');
        expect(granted).toHaveLength(1);
        for (const attempt of attempts) {
          if (attempt.status === 'rejected')
            expect(AwakenError.hasCode(attempt.reason, 'run_busy')).toBe(true);
        }
        const { rows } = await admin.query<{ fence: string; owner: string; log: string | null }>(
          `SELECT r.fence, r.lease_owner AS owner, l.fence AS log FROM ${s}.runs r
           LEFT JOIN ${s}.event_logs l USING (run_id) WHERE r.run_id = $1`,
          [run.runId],
        );
        expect(rows[0]?.fence).toBe('1');
        // a joint winner raised the log; a plain acquireRun leaves that to its own raiseFence
        const winner = (granted[0] as PromiseFulfilledResult<unknown>).value as { lease?: { owner: string } };
        if (winner.lease) expect(rows[0]).toMatchObject({ owner: winner.lease.owner, log: '1' });
      }
    } finally {
      await other.close();
    }
  });
});
