import { type AgentEvent, type RunRecord, decisionControl, jointCheckpointWriter } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import {
  type CommitDroppingProxy,
  startCommitDroppingProxy,
} from '../../../test-support/commit-dropping-proxy';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);

const runRecord = (runId: string, threadId: string, version: number): RunRecord => ({
  runId,
  threadId,
  agentId: 'agent',
  origin: 'user',
  status: version === 0 ? 'created' : 'running',
  steps: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  state: {},
  version,
  createdAt: 1,
  updatedAt: 1,
});
const stepEvent = (runId: string, seq: number): AgentEvent => ({
  type: 'step_start',
  step: seq,
  runId,
  seq,
  at: 1,
});

// The functions of migrations 5, 6 and 8 not covered by lost-commit-reply.int.test.ts, and calls
// sent together in one message: a reply lost after the commit is answered by the request record.
describe('a lost reply of a store function call, alone or in a message of several', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('lostfn') });
    await stores.migrate();
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  async function withLostReply<T>(call: () => Promise<T>): Promise<T> {
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const result = await call();
    expect(proxy.dropped).toBe(before + 1);
    return result;
  }

  it('applies enqueueAndClaim, extendLease, recordDispatchStart, recordRunResult and deadLetter once', async () => {
    const { mailbox } = stores;
    const claimed = await withLostReply(() =>
      mailbox.enqueueAndClaim({ threadId: 'ft', runId: 'r1', workerId: 'w', leaseMs: 60_000 }),
    );
    expect(claimed.status).toBe('claimed');
    expect(await mailbox.loadDispatch(claimed.dispatchId)).toEqual(claimed); // one claim token
    const proof = { dispatchId: claimed.dispatchId, claimToken: claimed.claimToken ?? '' };
    const extended = await withLostReply(() => mailbox.extendLease({ ...proof, leaseMs: 120_000 }));
    expect(extended.leaseUntil).toBe((extended.updatedAt ?? 0) + 120_000);
    const started = await withLostReply(() =>
      mailbox.recordDispatchStart({ ...proof, dispatchInstanceId: 'i1' }),
    );
    expect(started).toMatchObject({ dispatchInstanceId: 'i1', runStatus: 'running' });
    const recorded = await withLostReply(() =>
      mailbox.recordRunResult({
        ...proof,
        result: { runId: 'r1', dispatchInstanceId: 'i1', status: 'done', response: 'ok' },
      }),
    );
    expect(recorded).toMatchObject({ runStatus: 'done', runResponse: 'ok', status: 'claimed' });
    const dead = await withLostReply(() => mailbox.deadLetter({ ...proof, error: 'gave up' }));
    expect(dead).toMatchObject({ status: 'dead_letter', lastError: 'gave up', attemptCount: 0 });
    expect(await mailbox.loadDispatch(claimed.dispatchId)).toEqual(dead);
  });

  it('answers a dedupe-keyed enqueue with its first reply, not a dedupe conflict with itself', async () => {
    const { mailbox } = stores;
    const first = await withLostReply(() => mailbox.enqueue({ threadId: 'fd', runId: 'r2', dedupeKey: 'k' }));
    expect((await mailbox.listDispatches('fd')).items).toEqual([first]);
  });

  it('applies each call of a message once when the reply is lost after its first COMMIT', async () => {
    const { mailbox } = stores;
    const enqueued = await withLostReply(() =>
      Promise.all([
        mailbox.enqueue({ threadId: 'fb1', runId: 'rb1' }),
        mailbox.enqueue({ threadId: 'fb2', runId: 'rb2' }),
        mailbox.enqueue({ threadId: 'fb3', runId: 'rb3' }),
      ]),
    );
    for (const [index, dispatch] of enqueued.entries()) {
      expect((await mailbox.listDispatches(`fb${index + 1}`)).items).toEqual([dispatch]);
    }
    const claimed = (await mailbox.claim({ workerId: 'w', limit: 10, leaseMs: 60_000 })).filter((d) =>
      d.threadId.startsWith('fb'),
    );
    expect(claimed.map((d) => d.dispatchId).sort()).toEqual(enqueued.map((d) => d.dispatchId).sort());
    const nacked = await withLostReply(() =>
      Promise.all(
        claimed.map((d) =>
          mailbox.nack({ dispatchId: d.dispatchId, claimToken: d.claimToken ?? '', error: 'x' }),
        ),
      ),
    );
    expect(nacked.map((d) => d.attemptCount)).toEqual([1, 1, 1]); // each counted once
    for (const dispatch of nacked) expect(await mailbox.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
  });

  it('applies createRunWithLease, commitCheckpoint and the joint checkpoint write (tr_write) once', async () => {
    const { threadRuns, eventLog } = stores;
    const created = await withLostReply(() =>
      threadRuns.createRunWithLease(runRecord('lr', 'lt', 0), {
        owner: 'o',
        leaseMs: 60_000,
        createThread: true,
      }),
    );
    // the first reply: the thread it created, fence 1 (not a conflict with its own run)
    expect(created).toMatchObject({ threadCreated: true, lease: { fence: 1, owner: 'o' } });
    expect((await threadRuns.getThread('lt'))?.latestRunId).toBe('lr');
    const message = { visibility: 'external' as const, message: { role: 'user' as const, content: 'hi' } };
    const checkpoint = (version: number, count: number) => ({
      trigger: 'user_message' as const,
      threadId: 'lt',
      expectedMessageCount: count,
      messages: [message],
      run: runRecord('lr', 'lt', version),
      fence: 1,
    });
    await withLostReply(() => threadRuns.commitCheckpoint(checkpoint(1, 0)));
    expect(await threadRuns.messageCount('lt')).toBe(1); // written once: no stale_append for the re-send
    expect((await threadRuns.getRun('lr'))?.version).toBe(1);
    const writer = jointCheckpointWriter(threadRuns, eventLog);
    const outcome = await withLostReply(async () =>
      writer?.commitCheckpointWithEvents(checkpoint(2, 1), {
        runId: 'lr',
        events: [stepEvent('lr', 1), stepEvent('lr', 2)],
        fence: 1,
      }),
    );
    expect(outcome?.status).toBe('committed');
    expect((await eventLog.read('lr')).map((event) => event.seq)).toEqual([1, 2]);
    expect(await threadRuns.messageCount('lt')).toBe(2);
    expect((await threadRuns.getRun('lr'))?.version).toBe(2);
  });

  it('applies acquireRun, renewRun and releaseRun (tr_lease) once', async () => {
    const { threadRuns } = stores;
    await threadRuns.createThread({ id: 'lease-t' });
    await threadRuns.createRun(runRecord('lease-r', 'lease-t', 0));
    const lease = await withLostReply(() =>
      threadRuns.acquireRun('lease-r', { owner: 'o', leaseMs: 60_000 }),
    );
    expect(lease.fence).toBe(1); // the first reply, not run_busy against its own lease
    const renewed = await withLostReply(() => threadRuns.renewRun({ ...lease, leaseMs: 120_000 }));
    expect(renewed).toMatchObject({ fence: 1, owner: 'o' });
    expect(renewed.leaseUntil).toBeGreaterThan(lease.leaseUntil);
    expect(await withLostReply(() => threadRuns.releaseRun(lease))).toBe(true);
    const next = await threadRuns.acquireRun('lease-r', { owner: 'p', leaseMs: 60_000 });
    expect(next.fence).toBe(2); // released once, acquired once
  });

  it('applies createThread, createRun, appendMessages, an inbox put and remove (migration 8) once', async () => {
    const { threadRuns, inbox } = stores;
    const thread = await withLostReply(() => threadRuns.createThread({ id: 'm8', metadata: { k: 'v' } }));
    expect(await threadRuns.getThread('m8')).toEqual(thread); // its first reply, not a conflict with itself
    await withLostReply(() => threadRuns.createRun(runRecord('m8r', 'm8', 0)));
    expect((await threadRuns.getThread('m8'))?.latestRunId).toBe('m8r');
    const message = { visibility: 'external' as const, message: { role: 'user' as const, content: 'hi' } };
    const appended = await withLostReply(() =>
      threadRuns.appendMessages('m8', { expectedLength: 0, messages: [message, message] }),
    );
    expect(await threadRuns.readMessages('m8')).toEqual(appended); // same createdAt: the first run's
    expect(await threadRuns.messageCount('m8')).toBe(2); // no stale_append for the re-send
    const decision = decisionControl({
      decisionId: 'd1',
      toolCallId: 'call-1',
      action: 'resume',
      result: { approved: true },
      updatedAt: 1,
    });
    expect(await withLostReply(() => inbox.put('m8r', decision))).toBe('stored'); // not a second pending decision
    expect(await inbox.peek('m8r')).toHaveLength(1);
    await withLostReply(() => inbox.remove('m8r', [decision.id]));
    expect(await inbox.peek('m8r')).toEqual([]);
  });

  it('applies a createThread and a createRun asked side by side (one message) once each', async () => {
    const { threadRuns } = stores;
    const messages: string[][] = [];
    const { callFunctions } = threadRuns.db;
    threadRuns.db.callFunctions = (calls, lockFirst) => {
      messages.push(calls.map((call) => call.fn));
      return callFunctions.call(threadRuns.db, calls, lockFirst);
    };
    try {
      const [thread, run] = await withLostReply(() =>
        Promise.all([
          threadRuns.createThread({ id: 'pair' }),
          threadRuns.createRun(runRecord('pair-r', 'pair', 0)),
        ]),
      );
      expect(messages[0]).toEqual(['tr_create_thread', 'tr_create_run']); // one message for the two
      // its first reply, not a conflict with itself
      expect(await threadRuns.getThread('pair')).toMatchObject({
        id: 'pair',
        createdAt: thread.createdAt,
        latestRunId: 'pair-r',
      });
      expect(await threadRuns.getRun('pair-r')).toEqual(run);
      expect((await threadRuns.listRuns('pair')).items).toHaveLength(1);
    } finally {
      threadRuns.db.callFunctions = callFunctions;
    }
  });
});
