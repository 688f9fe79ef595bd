import { AwakenError, type NewMessage, type RunRecord } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import { type FailNthWrite, installFailNthWrite } from '../../../test-support/fail-nth-write';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
const message: NewMessage = { visibility: 'external', message: { role: 'user', content: 'hi' } };
const TABLES = ['threads', 'messages', 'runs', 'inboxes', 'controls', 'requests'];

const runRecord = (runId: string, threadId: string): RunRecord => ({
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
});

// Each function of migration 8 against a database that fails its N-th row write (a trigger on every
// table the functions write, the reply record included), for N = 1, 2, … until the call gets
// through: every failed call is a store_failure and leaves every table as it was (one transaction).
describe('the thread and inbox functions (migration 8) when the N-th row write fails', () => {
  let stores: PostgresStores;
  let failing: FailNthWrite;
  beforeAll(async () => {
    stores = createPostgresStores({ postgres: url, schema: uniqueSchema('failnth') });
    await stores.migrate();
    failing = await installFailNthWrite(admin, stores.schema, TABLES);
  });
  afterAll(async () => {
    await stores.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  const snapshot = (): Promise<string> => failing.snapshot();

  /**
   * Fails the call's 1st, 2nd, … row write until it gets through; returns its result and how many
   * of its writes were failed. Each failure: store_failure, nothing changed.
   */
  async function throughFailures<T>(call: () => Promise<T>): Promise<{ result: T; failed: number }> {
    for (let nth = 1; nth < 50; nth += 1) {
      const before = await snapshot();
      await failing.failAt(nth);
      try {
        const result = await call();
        return { result, failed: nth - 1 };
      } catch (error) {
        expect(AwakenError.hasCode(error, 'store_failure'), String(error)).toBe(true);
        expect((error as Error).message).toContain('injected failure');
        expect(await snapshot()).toBe(before);
      } finally {
        await failing.failAt(null);
      }
    }
    throw new Error('the call never got through');
  }

  it('createThread, createRun and appendMessages write all or nothing', async () => {
    const { threadRuns } = stores;
    const created = await throughFailures(() => threadRuns.createThread({ id: 't1', metadata: { a: 1 } }));
    expect(created.failed).toBe(2); // the thread row, the reply record
    expect(await threadRuns.getThread('t1')).toEqual(created.result);
    const run = await throughFailures(() => threadRuns.createRun(runRecord('r1', 't1')));
    expect(run.failed).toBe(3); // the run, the thread's latestRunId, the reply record
    expect((await threadRuns.getThread('t1'))?.latestRunId).toBe('r1');
    const appended = await throughFailures(() =>
      threadRuns.appendMessages('t1', { expectedLength: 0, messages: [message, message] }),
    );
    expect(appended.failed).toBe(4); // two messages, the thread, the reply record
    expect(await threadRuns.readMessages('t1')).toEqual(appended.result);
    expect(await threadRuns.messageCount('t1')).toBe(2);
    expect((await threadRuns.getThread('t1'))?.title).toBe('hi');
  });

  it('a createThread and a createRun sent in one message: each call writes all or nothing', async () => {
    const { threadRuns } = stores;
    const outcomes: string[] = [];
    for (let nth = 1; nth < 20; nth += 1) {
      const threadId = `pair-${nth}`;
      await failing.failAt(nth);
      let settled: PromiseSettledResult<unknown>[];
      try {
        settled = await Promise.allSettled([
          threadRuns.createThread({ id: threadId }),
          threadRuns.createRun(runRecord(`${threadId}-r`, threadId)),
        ]);
      } finally {
        await failing.failAt(null);
      }
      const [thread, run] = settled.map((outcome) => outcome.status === 'fulfilled');
      for (const [index, outcome] of settled.entries()) {
        if (outcome.status === 'fulfilled') continue;
        // the run's write alone, after the thread's failed: no thread to write it on
        if (index === 1 && !thread && AwakenError.hasCode(outcome.reason, 'not_found')) continue;
        expect(AwakenError.hasCode(outcome.reason, 'store_failure'), String(outcome.reason)).toBe(true);
        expect(String(outcome.reason)).toContain('injected failure');
      }
      outcomes.push(`${thread ? 'thread' : '-'} ${run ? 'run' : '-'}`);
      // what each call answered is what it wrote: no thread without its reply, no half-written run
      const found = await threadRuns.getThread(threadId);
      expect(found !== null).toBe(thread);
      expect(found?.latestRunId).toBe(run ? `${threadId}-r` : undefined);
      expect((await threadRuns.getRun(`${threadId}-r`)) !== null).toBe(run);
      if (thread && run) break;
    }
    // the message fails, then each call alone: the thread's two writes, then the run's three
    expect(outcomes).toEqual(['- -', '- -', 'thread -', 'thread -', 'thread -', 'thread run']);
  });

  it('an inbox put and remove write all or nothing', async () => {
    const { inbox } = stores;
    const put = await throughFailures(() => inbox.put('r2', { kind: 'cancel', id: 'c1', at: 1 }));
    expect(put).toEqual({ result: 'stored', failed: 3 }); // the inbox row, the control, the reply record
    expect(await inbox.peek('r2')).toEqual([{ kind: 'cancel', id: 'c1', at: 1 }]);
    const removed = await throughFailures(() => inbox.remove('r2', ['c1']));
    // the inbox row's lock (an upsert of an existing row: its insert, then its update), the control, the reply record
    expect(removed.failed).toBe(4);
    expect(await inbox.peek('r2')).toEqual([]);
  });
});
