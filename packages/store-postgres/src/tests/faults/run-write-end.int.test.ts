import {
  type AgentEvent,
  AwakenError,
  type Checkpoint,
  type RunRecord,
  jointCheckpointWriter,
} from '@awaken/contract';
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
const TABLES = ['event_logs', 'events', 'threads', 'runs', 'messages', 'inboxes', 'requests'];

const runRecord = (runId: string, version: number, status: RunRecord['status']): RunRecord => ({
  runId,
  threadId: `t-${runId}`,
  agentId: 'agent',
  origin: 'user',
  status,
  steps: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  state: {},
  version,
  createdAt: 1,
  updatedAt: 1,
});
const checkpoint = (runId: string, version: number, status: RunRecord['status']): Checkpoint => ({
  trigger: status === 'done' ? 'run_finished' : 'user_message',
  threadId: `t-${runId}`,
  expectedMessageCount: version - 1,
  messages: [{ visibility: 'external', message: { role: 'user', content: `m${version}` } }],
  run: runRecord(runId, version, status),
  fence: 1,
});
const stepEnd = (runId: string, seq: number): AgentEvent => ({
  type: 'step_end',
  step: 1,
  runId,
  seq,
  at: 1,
});
const runFinish = (runId: string, seq: number): AgentEvent => ({
  type: 'run_finish',
  runId,
  seq,
  at: 1,
  status: 'done',
  termination: { type: 'natural_end' },
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
});

// tr_write_end (migration 12), the joint checkpoint write with the run's end: under a reply lost
// after its commit, and against a database that fails its N-th row write — never a finished log or
// a run_finish without the stored outcome, never a stored outcome without its run_finish.
describe('the joint write with the run end (migration 12)', () => {
  let proxy: CommitDroppingProxy;
  let stores: PostgresStores;
  let failing: FailNthWrite;
  beforeAll(async () => {
    proxy = await startCommitDroppingProxy(url);
    stores = createPostgresStores({ postgres: proxy.url, schema: uniqueSchema('writeend') });
    await stores.migrate();
    failing = await installFailNthWrite(admin, stores.schema, TABLES);
  });
  afterAll(async () => {
    await stores.close();
    await proxy.close();
    await dropSchema(admin, stores.schema);
    await admin.end();
  });

  /** A run leased at fence 1 with its first checkpoint and one event stored; the joint writer. */
  async function started(runId: string) {
    const { threadRuns, eventLog } = stores;
    const writer = jointCheckpointWriter(threadRuns, eventLog);
    if (!writer) throw new Error('no joint writer');
    await threadRuns.createThread({ id: `t-${runId}` });
    await threadRuns.createRun(runRecord(runId, 0, 'created'));
    await threadRuns.acquireRun(runId, { owner: 'w', leaseMs: 60_000 });
    await eventLog.raiseFence(runId, 1);
    const first = await writer.commitCheckpointWithEvents(checkpoint(runId, 1, 'running'), {
      runId,
      events: [stepEnd(runId, 1)],
      fence: 1,
    });
    expect(first.status).toBe('committed');
    return writer;
  }

  /** What a reader and an activation see of the run. */
  async function seen(runId: string) {
    const { threadRuns, eventLog } = stores;
    return {
      events: (await eventLog.read(runId)).map((event) => `${event.seq} ${event.type}`),
      finished: await eventLog.isFinished(runId),
      run: (await threadRuns.getRun(runId))?.status,
    };
  }

  const snapshot = (): Promise<string> => failing.snapshot();

  it('writes the checkpoint, the last events and the finish once when the reply is lost', async () => {
    const writer = await started('lost');
    const before = proxy.dropped;
    proxy.dropNextCommitReply();
    const outcome = await writer.commitCheckpointWithEvents(checkpoint('lost', 2, 'done'), {
      runId: 'lost',
      events: [stepEnd('lost', 2)],
      fence: 1,
      end: { events: [runFinish('lost', 3)], finish: {} },
    });
    expect(proxy.dropped).toBe(before + 1);
    expect(outcome.status).toBe('committed');
    expect(await seen('lost')).toEqual({
      events: ['1 step_end', '2 step_end', '3 run_finish'],
      finished: true,
      run: 'done',
    });
  });

  it('writes all or nothing when its N-th row write fails', async () => {
    const writer = await started('nth');
    let failed = 0;
    for (let nth = 1; nth < 50; nth += 1) {
      const before = await snapshot();
      await failing.failAt(nth);
      try {
        const outcome = await writer.commitCheckpointWithEvents(checkpoint('nth', 2, 'done'), {
          runId: 'nth',
          events: [stepEnd('nth', 2)],
          fence: 1,
          end: { events: [runFinish('nth', 3)], finish: {} },
        });
        expect(outcome.status).toBe('committed');
        break;
      } catch (error) {
        expect(AwakenError.hasCode(error, 'store_failure'), String(error)).toBe(true);
        expect((error as Error).message).toContain('injected failure');
        // nothing of it: no run_finish, no finished log, the run still running
        expect(await snapshot()).toBe(before);
        expect(await seen('nth')).toEqual({ events: ['1 step_end'], finished: false, run: 'running' });
        failed += 1;
      } finally {
        await failing.failAt(null);
      }
    }
    expect(await seen('nth')).toEqual({
      events: ['1 step_end', '2 step_end', '3 run_finish'],
      finished: true,
      run: 'done',
    });
    // two events, the log's last seq, the message, the run, the thread, the log's finish, the inbox,
    // the reply record: nine row writes, each failed once
    expect(failed).toBe(9);
  });
});
