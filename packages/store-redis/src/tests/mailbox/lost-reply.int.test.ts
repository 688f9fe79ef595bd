import { type RunDispatch, type RunRecord, decisionControl, jointAcquirer } from '@awaken/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { type RedisStores, createRedisStores } from '../../create-redis-stores';
import { MUTATING_SCRIPT_SHAS } from '../../internal/lua/idempotent-script';
import type { RedisThreadRunStore } from '../../redis-thread-run-store';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';
import { type ReplyDroppingProxy, startReplyDroppingProxy } from '../../../test-support/reply-dropping-proxy';
import { scriptSha } from '../../../test-support/script-sha';

// Every mutating operation runs once through a loopback proxy that swallows the script's reply after
// Redis executed it and cuts the connection; ioredis reconnects and re-sends the command. The
// outcome must be that of one execution: the caller gets the first reply and the data shows one write.

const isScript = (words: string[]) => scriptSha(words) !== undefined;

const newRun = (runId: string, threadId: string): RunRecord => ({
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

const proof = (dispatch: RunDispatch) => ({
  dispatchId: dispatch.dispatchId,
  claimToken: dispatch.claimToken ?? '',
});

describe('a mutating operation whose reply was lost and re-sent', () => {
  let proxy: ReplyDroppingProxy;
  let direct: RedisStores;
  let proxied: RedisStores;
  /** The scripts whose reply was dropped, to check that every mutating script was exercised. */
  const exercised = new Set<string>();

  beforeAll(async () => {
    proxy = await startReplyDroppingProxy(inject('redisUrl'));
  });
  afterAll(async () => {
    await proxy.close();
    const names = [...MUTATING_SCRIPT_SHAS].filter(([, sha]) => exercised.has(sha)).map(([name]) => name);
    expect(names.sort()).toEqual([...MUTATING_SCRIPT_SHAS.keys()].sort());
  });

  beforeEach(() => {
    const prefix = uniquePrefix('lost-reply');
    direct = createRedisStores({ redis: inject('redisUrl'), prefix });
    proxied = createRedisStores({ redis: proxy.url, prefix });
  });
  afterEach(async () => {
    proxy.disarm();
    await deleteKeys(direct.redis, direct.prefix);
    await Promise.all([direct.close(), proxied.close()]);
  });

  /** Runs `operation` with the reply of its script dropped once; checks the drop happened. */
  async function lost<T>(operation: () => Promise<T>): Promise<T> {
    const before = proxy.dropped;
    const dropped = proxy.dropNextReply(isScript);
    const result = await operation();
    exercised.add(scriptSha(await dropped) ?? '');
    expect(proxy.dropped).toBe(before + 1);
    return result;
  }

  async function claimed(input: { maxAttempts?: number; leaseMs?: number } = {}) {
    const queued = await direct.mailbox.enqueue({ threadId: 't1', runId: 'r1', ...input });
    const dispatch = await direct.mailbox.claimDispatch({
      dispatchId: queued.dispatchId,
      workerId: 'w1',
      leaseMs: input.leaseMs ?? 60_000,
    });
    if (dispatch === null) throw new Error('not claimed');
    return dispatch;
  }

  async function expectStored(dispatch: RunDispatch) {
    expect(await direct.mailbox.loadDispatch(dispatch.dispatchId)).toEqual(dispatch);
  }

  describe('mailbox', () => {
    it('enqueue answers with the dispatch, not conflict, and stores one', async () => {
      const dispatch = await lost(() => proxied.mailbox.enqueue({ threadId: 't1', runId: 'r1' }));
      await expectStored(dispatch);
      expect((await direct.mailbox.listDispatches('t1')).items).toHaveLength(1);
    });

    it('claim delivers the dispatch it claimed instead of using up its only attempt', async () => {
      const queued = await direct.mailbox.enqueue({ threadId: 't1', runId: 'r1', maxAttempts: 1 });
      const batch = await lost(() => proxied.mailbox.claim({ workerId: 'w1', limit: 5, leaseMs: 60_000 }));
      expect(batch.map((dispatch) => dispatch.dispatchId)).toEqual([queued.dispatchId]);
      await expectStored(batch[0] as RunDispatch);
    });

    it('claimDispatch delivers the claim instead of null', async () => {
      const queued = await direct.mailbox.enqueue({ threadId: 't1', runId: 'r1' });
      const dispatch = await lost(() =>
        proxied.mailbox.claimDispatch({ dispatchId: queued.dispatchId, workerId: 'w1', leaseMs: 60_000 }),
      );
      expect(dispatch?.status).toBe('claimed');
      await expectStored(dispatch as RunDispatch);
    });

    it('ack answers acked, not stale_claim', async () => {
      const dispatch = await lost(async () => proxied.mailbox.ack(proof(await claimed())));
      expect(dispatch.status).toBe('acked');
      await expectStored(dispatch);
    });

    it('nack counts one attempt and answers, not stale_claim', async () => {
      const dispatch = await lost(async () =>
        proxied.mailbox.nack({ ...proof(await claimed()), error: 'boom' }),
      );
      expect(dispatch).toMatchObject({ status: 'queued', attemptCount: 1 });
      await expectStored(dispatch);
    });

    it('deadLetter answers dead_letter, not stale_claim', async () => {
      const dispatch = await lost(async () =>
        proxied.mailbox.deadLetter({ ...proof(await claimed()), error: 'permanent' }),
      );
      expect(dispatch.status).toBe('dead_letter');
      await expectStored(dispatch);
    });

    it('markRequeued answers the dead letter it marked, not a conflict, and marks it once', async () => {
      const dead = await direct.mailbox.deadLetter({ ...proof(await claimed()), error: 'permanent' });
      const mark = { dispatchId: dead.dispatchId, runId: 'r2', requeueDispatchId: 'd2' };
      const dispatch = await lost(() => proxied.mailbox.markRequeued(mark));
      expect(dispatch).toMatchObject({
        status: 'dead_letter',
        requeuedRunId: 'r2',
        requeuedDispatchId: 'd2',
      });
      await expectStored(dispatch);
    });

    it('cancel answers cancelled, not conflict', async () => {
      const queued = await direct.mailbox.enqueue({ threadId: 't1', runId: 'r1' });
      const dispatch = await lost(() => proxied.mailbox.cancel(queued.dispatchId));
      expect(dispatch.status).toBe('cancelled');
      await expectStored(dispatch);
    });

    it('extendLease stores the lease it answered with', async () => {
      const before = await claimed();
      const dispatch = await lost(() => proxied.mailbox.extendLease({ ...proof(before), leaseMs: 90_000 }));
      await expectStored(dispatch);
    });

    it('interrupt bumps the epoch once', async () => {
      await claimed();
      await direct.mailbox.enqueue({ threadId: 't1', runId: 'r2' });
      const interrupt = await lost(() => proxied.mailbox.interrupt('t1'));
      expect(interrupt).toMatchObject({ newDispatchEpoch: 1, supersededCount: 1 });
      expect(await direct.mailbox.threadEpoch('t1')).toBe(1);
    });

    it('supersedeClaimed answers superseded, not conflict', async () => {
      const dispatch = await claimed();
      await direct.mailbox.interrupt('t1');
      const superseded = await lost(() => proxied.mailbox.supersedeClaimed(dispatch.dispatchId));
      expect(superseded.status).toBe('superseded');
      await expectStored(superseded);
    });

    it('recordDispatchStart stores what it answered', async () => {
      const dispatch = await claimed();
      const started = await lost(() =>
        proxied.mailbox.recordDispatchStart({ ...proof(dispatch), dispatchInstanceId: 'i1' }),
      );
      await expectStored(started);
    });

    it('recordRunResult stores what it answered', async () => {
      const dispatch = await claimed();
      const recorded = await lost(() =>
        proxied.mailbox.recordRunResult({
          ...proof(dispatch),
          result: { runId: 'r1', dispatchInstanceId: 'i1', status: 'done' },
        }),
      );
      await expectStored(recorded);
    });

    it('enqueueAndClaim delivers the claim instead of conflict, and stores one dispatch', async () => {
      const dispatch = await lost(() =>
        proxied.mailbox.enqueueAndClaim({
          threadId: 't1',
          runId: 'r1',
          workerId: 'w1',
          leaseMs: 60_000,
          dispatchInstanceId: 'i1',
        }),
      );
      expect(dispatch).toMatchObject({ status: 'claimed', dispatchInstanceId: 'i1', runStatus: 'running' });
      await expectStored(dispatch);
      expect((await direct.mailbox.listDispatches('t1')).items).toHaveLength(1);
    });

    it('ack with a result answers acked with the result, not stale_claim', async () => {
      const dispatch = await claimed();
      const acked = await lost(() =>
        proxied.mailbox.ack({
          ...proof(dispatch),
          result: { runId: 'r1', dispatchInstanceId: 'i1', status: 'done', response: 'ok' },
        }),
      );
      expect(acked).toMatchObject({ status: 'acked', runStatus: 'done', runResponse: 'ok' });
      await expectStored(acked);
    });

    it('reclaimExpiredLeases answers with the dispatch it reclaimed', async () => {
      const dispatch = await claimed({ leaseMs: 1 });
      await vi.waitFor(async () =>
        expect(await direct.mailbox.now()).toBeGreaterThan(dispatch.leaseUntil ?? 0),
      );
      const reclaimed = await lost(() => proxied.mailbox.reclaimExpiredLeases());
      expect(reclaimed).toHaveLength(1);
      expect(reclaimed[0]).toMatchObject({ status: 'queued', attemptCount: 1 });
      await expectStored(reclaimed[0] as RunDispatch);
    });

    it('purgeTerminal answers with the number it purged', async () => {
      const queued = await direct.mailbox.enqueue({ threadId: 't1', runId: 'r1' });
      const cancelled = await direct.mailbox.cancel(queued.dispatchId);
      await vi.waitFor(async () => expect(await direct.mailbox.now()).toBeGreaterThan(cancelled.updatedAt));
      const olderThan = await direct.mailbox.now();
      expect(await lost(() => proxied.mailbox.purgeTerminal({ olderThan }))).toBe(1);
      expect(await direct.mailbox.loadDispatch(queued.dispatchId)).toBeNull();
    });

    it('purgeTerminal of one status answers with the number it purged, and counts agree', async () => {
      const queued = await direct.mailbox.enqueue({ threadId: 't1', runId: 'r1' });
      const cancelled = await direct.mailbox.cancel(queued.dispatchId);
      await vi.waitFor(async () => expect(await direct.mailbox.now()).toBeGreaterThan(cancelled.updatedAt));
      const olderThan = await direct.mailbox.now();
      expect(await lost(() => proxied.mailbox.purgeTerminal({ olderThan, status: ['cancelled'] }))).toBe(1);
      expect(await direct.mailbox.loadDispatch(queued.dispatchId)).toBeNull();
      expect((await direct.mailbox.countDispatches()).cancelled).toBe(0);
    });
  });

  describe('threads and runs', () => {
    it('createThread answers with the thread, not conflict', async () => {
      const thread = await lost(() => proxied.threadRuns.createThread({ id: 'th1', metadata: { a: 1 } }));
      expect(await direct.threadRuns.getThread('th1')).toEqual(thread);
    });

    it('updateThreadMetadata stores what it answered', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      const thread = await lost(() => proxied.threadRuns.updateThreadMetadata('th1', { b: 2 }));
      expect(await direct.threadRuns.getThread('th1')).toEqual(thread);
    });

    it('deleteThread answers true, not false', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      expect(await lost(() => proxied.threadRuns.deleteThread('th1'))).toBe(true);
      expect(await direct.threadRuns.getThread('th1')).toBeNull();
    });

    it('appendMessages answers with the records, not stale_append, and appends once', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      const records = await lost(() =>
        proxied.threadRuns.appendMessages('th1', {
          expectedLength: 0,
          messages: [{ visibility: 'external', message: { role: 'user', content: 'hi' } }],
        }),
      );
      expect(await direct.threadRuns.readMessages('th1')).toEqual(records);
    });

    it('createRun answers with the run, not conflict', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      const run = await lost(() => proxied.threadRuns.createRun(newRun('r1', 'th1')));
      expect(await direct.threadRuns.getRun('r1')).toEqual(run);
    });

    it('createRunWithLease answers with the run and its lease, not conflict', async () => {
      const created = await lost(() =>
        proxied.threadRuns.createRunWithLease(newRun('r1', 'th1'), {
          owner: 'worker-a',
          leaseMs: 60_000,
          createThread: true,
        }),
      );
      expect(created).toMatchObject({
        threadCreated: true,
        lease: { runId: 'r1', owner: 'worker-a', fence: 1 },
      });
      expect(await direct.threadRuns.getRun('r1')).toEqual(created.run);
      // the lease answered is the one stored: it renews
      const { leaseUntil: _until, ...held } = created.lease;
      await expect(direct.threadRuns.renewRun({ ...held, leaseMs: 60_000 })).resolves.toMatchObject(held);
    });

    it('createBranch answers with the branch, not conflict, and lists it once', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      await direct.threadRuns.appendMessages('th1', {
        expectedLength: 0,
        messages: [{ visibility: 'external', message: { role: 'user', content: 'hi' } }],
      });
      const branch = await lost(() =>
        proxied.threadRuns.createBranch({ threadId: 'th1', atSeq: 1, id: 'b1' }),
      );
      expect(branch).toMatchObject({ id: 'b1', branchOf: { threadId: 'th1', seq: 1 } });
      expect(await direct.threadRuns.getThread('b1')).toEqual(branch);
      expect((await direct.threadRuns.listBranches('th1')).items).toEqual([branch]);
    });

    it("createBranchOf (a cluster branch off its source's shard) answers with the branch, not conflict", async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      const made = await lost(() =>
        (proxied.threadRuns as RedisThreadRunStore).createBranchOf({
          branchId: 'b1',
          sourceId: 'th1',
          atSeq: 0,
          metadata: '{}',
          title: '',
        }),
      );
      expect(made.thread).toMatchObject({ id: 'b1', branchOf: { threadId: 'th1', seq: 0 } });
      expect(await direct.threadRuns.getThread('b1')).toEqual(made.thread);
      expect((await direct.threadRuns.listThreads()).items.map((thread) => thread.id)).toEqual(['th1', 'b1']);
    });

    it('commitCheckpoint answers with the run, not stale_version, and writes once', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      await direct.threadRuns.createRun(newRun('r1', 'th1'));
      const run = await lost(() =>
        proxied.threadRuns.commitCheckpoint({
          trigger: 'user_message',
          threadId: 'th1',
          expectedMessageCount: 0,
          messages: [{ visibility: 'external', message: { role: 'user', content: 'hi' } }],
          run: { ...newRun('r1', 'th1'), status: 'running', version: 1 },
        }),
      );
      expect(await direct.threadRuns.getRun('r1')).toEqual(run);
      expect(await direct.threadRuns.messageCount('th1')).toBe(1);
    });

    it('checkpointWithEvents answers committed, not a seq conflict, and appends and writes once', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      await direct.threadRuns.createRun(newRun('r1', 'th1'));
      const joint = proxied.threadRuns.checkpointWithEvents(proxied.eventLog);
      const event = { type: 'step_start', step: 1, runId: 'r1', seq: 1, at: 1 } as const;
      const outcome = await lost(async () =>
        joint?.commitCheckpointWithEvents(
          {
            trigger: 'user_message',
            threadId: 'th1',
            expectedMessageCount: 0,
            messages: [{ visibility: 'external', message: { role: 'user', content: 'hi' } }],
            run: { ...newRun('r1', 'th1'), status: 'running', version: 1 },
          },
          { runId: 'r1', events: [event] },
        ),
      );
      expect(outcome?.status).toBe('committed');
      expect(await direct.eventLog.read('r1')).toEqual([event]);
      expect(await direct.threadRuns.messageCount('th1')).toBe(1);
      expect((await direct.threadRuns.getRun('r1'))?.version).toBe(1);
    });

    it('checkpointWithEvents with the run end answers committed, and appends, writes and finishes once', async () => {
      await direct.threadRuns.createThread({ id: 'th1' });
      await direct.threadRuns.createRun(newRun('r1', 'th1'));
      const joint = proxied.threadRuns.checkpointWithEvents(proxied.eventLog);
      const event = { type: 'step_end', step: 1, runId: 'r1', seq: 1, at: 1 } as const;
      const finish = {
        type: 'run_finish',
        runId: 'r1',
        seq: 2,
        at: 1,
        status: 'done',
        termination: { type: 'natural_end' },
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      } as const;
      const outcome = await lost(async () =>
        joint?.commitCheckpointWithEvents(
          {
            trigger: 'run_finished',
            threadId: 'th1',
            expectedMessageCount: 0,
            messages: [{ visibility: 'external', message: { role: 'user', content: 'hi' } }],
            run: { ...newRun('r1', 'th1'), status: 'done', version: 1 },
          },
          { runId: 'r1', events: [event], end: { events: [finish], finish: {} } },
        ),
      );
      expect(outcome?.status).toBe('committed');
      expect(await direct.eventLog.read('r1')).toEqual([event, finish]);
      expect(await direct.eventLog.isFinished('r1')).toBe(true);
      expect(await direct.threadRuns.messageCount('th1')).toBe(1);
      expect((await direct.threadRuns.getRun('r1'))?.status).toBe('done');
    });
  });

  describe('event log and run-control inbox', () => {
    const event = { type: 'text_delta' as const, runId: 'r1', seq: 1, at: 1, messageId: 'm', delta: 'a' };
    const control = decisionControl({ decisionId: 'd1', toolCallId: 'c1', action: 'resume', updatedAt: 1 });

    it('append resolves, not conflict, and appends once', async () => {
      await lost(() => proxied.eventLog.append('r1', [event]));
      expect(await direct.eventLog.read('r1')).toEqual([event]);
    });

    it('finish marks the log finished', async () => {
      await direct.eventLog.append('r1', [event]);
      await lost(() => proxied.eventLog.finish('r1', { ttlMs: 60_000 }));
      expect(await direct.eventLog.isFinished('r1')).toBe(true);
    });

    it('raiseFence answers with the last seq', async () => {
      await direct.eventLog.append('r1', [event]);
      expect(await lost(() => proxied.eventLog.raiseFence('r1', 3))).toBe(1);
      await expect(direct.eventLog.append('r1', [{ ...event, seq: 2 }], { fence: 2 })).rejects.toMatchObject({
        code: 'stale_claim',
      });
    });

    it('put answers stored, not duplicate', async () => {
      expect(await lost(() => proxied.inbox.put('r1', control))).toBe('stored');
      expect(await direct.inbox.peek('r1')).toEqual([control]);
    });

    it('remove removes what it was given, once', async () => {
      await direct.inbox.put('r1', control);
      await lost(() => proxied.inbox.remove('r1', ['d1']));
      expect(await direct.inbox.peek('r1')).toEqual([]);
    });
  });

  describe('run leases', () => {
    async function withRun() {
      await direct.threadRuns.createThread({ id: 'th1' });
      await direct.threadRuns.createRun(newRun('r1', 'th1'));
    }

    it('acquireRun answers with the lease it granted, not run_busy', async () => {
      await withRun();
      const lease = await lost(() => proxied.threadRuns.acquireRun('r1', { owner: 'o1', leaseMs: 60_000 }));
      expect(lease).toMatchObject({ runId: 'r1', owner: 'o1', fence: 1 });
      await expect(direct.threadRuns.releaseRun({ runId: 'r1', owner: 'o1', fence: 1 })).resolves.toBe(true);
    });

    it('acquireRunWithFence answers with the lease it granted and the log at its fence, not run_busy', async () => {
      await withRun();
      const joint = jointAcquirer(proxied.threadRuns, proxied.eventLog);
      const taken = await lost(async () => {
        if (!joint) throw new Error('no joint acquisition');
        return joint.acquireRunWithFence('r1', { owner: 'o1', leaseMs: 60_000 });
      });
      expect(taken).toMatchObject({
        lease: { runId: 'r1', owner: 'o1', fence: 1 },
        lastSeq: 0,
        run: { runId: 'r1' },
      });
      await expect(direct.eventLog.append('r1', [], { fence: 0 })).rejects.toMatchObject({
        code: 'stale_claim',
      });
      await expect(direct.threadRuns.releaseRun({ runId: 'r1', owner: 'o1', fence: 1 })).resolves.toBe(true);
    });

    it('renewRun answers with the lease it extended', async () => {
      await withRun();
      const lease = await direct.threadRuns.acquireRun('r1', { owner: 'o1', leaseMs: 60_000 });
      const renewed = await lost(() => proxied.threadRuns.renewRun({ ...lease, leaseMs: 90_000 }));
      expect(renewed.fence).toBe(1);
    });

    it('releaseRun answers true, not false', async () => {
      await withRun();
      const lease = await direct.threadRuns.acquireRun('r1', { owner: 'o1', leaseMs: 60_000 });
      expect(await lost(() => proxied.threadRuns.releaseRun(lease))).toBe(true);
    });
  });
});
