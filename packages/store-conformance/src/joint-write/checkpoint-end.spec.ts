import {
  type AgentEvent,
  AwakenError,
  type Checkpoint,
  type CheckpointWithEvents,
  type RunRecord,
  jointCheckpointWriter,
} from '@awaken/contract';
import { expect, it } from 'vitest';
import type { SuiteContext } from '../suite-context';
import type { JointStores } from './joint-stores';

// The joint write's end (CheckpointEnd): the run's last events and the log's finish, written with a
// committed checkpoint in the same atomic write, never without it, and nothing at all when refused.

const runRecord = (version: number, status: RunRecord['status'] = 'running'): RunRecord => ({
  runId: 'r1',
  threadId: 'th1',
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

const checkpoint = (version: number, status: RunRecord['status'], fence: number): Checkpoint => ({
  trigger: status === 'done' ? 'run_finished' : 'user_message',
  threadId: 'th1',
  expectedMessageCount: version - 1,
  messages: [{ visibility: 'external', message: { role: 'user', content: `m${version}` } }],
  run: runRecord(version, status),
  fence,
});

const steps = (from: number, count: number): AgentEvent[] =>
  Array.from({ length: count }, (_, index) => ({
    type: 'step_end',
    step: from + index,
    runId: 'r1',
    seq: from + index,
    at: 1,
  }));

const runFinish = (seq: number, status: 'done' | 'waiting' = 'done'): AgentEvent => ({
  type: 'run_finish',
  runId: 'r1',
  seq,
  at: 1,
  status,
  termination: status === 'done' ? { type: 'natural_end' } : { type: 'suspended' },
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
});

export function checkpointEndSpec(ctx: SuiteContext<JointStores>): void {
  /** The writer, a run r1 on thread th1 leased at fence 1, and its first checkpoint stored. */
  async function setUp(): Promise<CheckpointWithEvents> {
    const { threadRuns, eventLog } = ctx.store;
    const writer = jointCheckpointWriter(threadRuns, eventLog);
    if (!writer) throw new Error('the store offers no joint write for its event log');
    await threadRuns.createThread({ id: 'th1' });
    await threadRuns.createRun(runRecord(0, 'created'));
    const { fence } = await threadRuns.acquireRun('r1', { owner: 'w', leaseMs: 60_000 });
    expect(fence).toBe(1);
    await eventLog.raiseFence('r1', fence);
    const first = await writer.commitCheckpointWithEvents(checkpoint(1, 'running', 1), {
      runId: 'r1',
      events: steps(1, 2),
      fence: 1,
    });
    expect(first.status).toBe('committed');
    return writer;
  }

  async function seen() {
    const { threadRuns, eventLog } = ctx.store;
    const run = await threadRuns.getRun('r1');
    return {
      seqs: (await eventLog.read('r1')).map((event) => [event.seq, event.type]),
      finished: await eventLog.isFinished('r1'),
      version: run?.version,
      status: run?.status,
    };
  }

  it('appends the last events after the checkpoint and finishes the log, in one write', async () => {
    const writer = await setUp();
    const outcome = await writer.commitCheckpointWithEvents(checkpoint(2, 'done', 1), {
      runId: 'r1',
      events: steps(3, 1),
      fence: 1,
      end: { events: [runFinish(4)], finish: {} },
    });
    expect(outcome.status).toBe('committed');
    expect(await seen()).toEqual({
      seqs: [
        [1, 'step_end'],
        [2, 'step_end'],
        [3, 'step_end'],
        [4, 'run_finish'],
      ],
      finished: true,
      version: 2,
      status: 'done',
    });
    // a reader of the finished log is told the stream is over, with every event before
    const { eventLog } = ctx.store;
    expect(await eventLog.tail('r1', { afterSeq: 4, waitMs: 5_000 })).toEqual([]);
    expect((await eventLog.tail('r1', { afterSeq: 3, waitMs: 5_000 })).map((e) => e.type)).toEqual([
      'run_finish',
    ]);
    // nothing more is appended to it
    await expect(eventLog.append('r1', [runFinish(5)], { fence: 1 })).rejects.toSatisfy((error) =>
      AwakenError.hasCode(error, 'conflict'),
    );
  });

  it('takes the last events right after the log when no events come before the checkpoint', async () => {
    const writer = await setUp();
    const outcome = await writer.commitCheckpointWithEvents(checkpoint(2, 'done', 1), {
      runId: 'r1',
      events: [],
      fence: 1,
      end: { events: [runFinish(3)], finish: { ttlMs: 60_000 } },
    });
    expect(outcome.status).toBe('committed');
    expect((await seen()).seqs.at(-1)).toEqual([3, 'run_finish']);
    expect((await seen()).finished).toBe(true);
  });

  it('leaves the log open without finish (a run that waits)', async () => {
    const writer = await setUp();
    const outcome = await writer.commitCheckpointWithEvents(checkpoint(2, 'waiting', 1), {
      runId: 'r1',
      events: steps(3, 1),
      fence: 1,
      end: { events: [runFinish(4, 'waiting')] },
    });
    expect(outcome.status).toBe('committed');
    expect(await seen()).toMatchObject({ finished: false, version: 2, status: 'waiting' });
    expect((await seen()).seqs.at(-1)).toEqual([4, 'run_finish']);
    await ctx.store.eventLog.append('r1', steps(5, 1), { fence: 1 });
  });

  it('writes none of the end with a refused checkpoint: the events before it only, the log open', async () => {
    const writer = await setUp();
    // version 3 where 2 is due: the checkpoint is refused after the events before it are appended
    const outcome = await writer.commitCheckpointWithEvents(checkpoint(3, 'done', 1), {
      runId: 'r1',
      events: steps(3, 1),
      fence: 1,
      end: { events: [runFinish(4)], finish: {} },
    });
    expect(outcome.status).toBe('checkpoint_failed');
    if (outcome.status === 'checkpoint_failed') expect(outcome.error.code).toBe('stale_version');
    expect(await seen()).toEqual({
      seqs: [
        [1, 'step_end'],
        [2, 'step_end'],
        [3, 'step_end'],
      ],
      finished: false,
      version: 1,
      status: 'running',
    });
    // the run's end can be written again, once the checkpoint is right
    const again = await writer.commitCheckpointWithEvents(checkpoint(2, 'done', 1), {
      runId: 'r1',
      events: [],
      fence: 1,
      end: { events: [runFinish(4)], finish: {} },
    });
    expect(again.status).toBe('committed');
    expect(await seen()).toMatchObject({ finished: true, version: 2, status: 'done' });
  });

  it("keeps the log's fence with a refused checkpoint: the last events' fence is not kept either", async () => {
    const writer = await setUp();
    // a writer presenting fence 2 (the log is at 1) with no events before the checkpoint: only the
    // last events would raise the fence, and they are not written
    const outcome = await writer.commitCheckpointWithEvents(checkpoint(3, 'done', 1), {
      runId: 'r1',
      events: [],
      fence: 2,
      end: { events: [runFinish(3)], finish: {} },
    });
    expect(outcome.status).toBe('checkpoint_failed');
    expect(await seen()).toMatchObject({ finished: false, version: 1 });
    expect((await seen()).seqs.at(-1)).toEqual([2, 'step_end']);
    // the lease's writer (fence 1) still appends
    await ctx.store.eventLog.append('r1', steps(3, 1), { fence: 1 });
    expect((await seen()).seqs.at(-1)).toEqual([3, 'step_end']);
  });

  it('writes nothing at all when the last events do not follow the events before them', async () => {
    const writer = await setUp();
    const before = await seen();
    await expect(
      writer.commitCheckpointWithEvents(checkpoint(2, 'done', 1), {
        runId: 'r1',
        events: steps(3, 1),
        fence: 1,
        end: { events: [runFinish(6)], finish: {} },
      }),
    ).rejects.toSatisfy((error) => AwakenError.hasCode(error, 'conflict'));
    expect(await seen()).toEqual(before);
  });

  it('writes nothing at all for a fenced-out writer', async () => {
    const writer = await setUp();
    const { threadRuns, eventLog } = ctx.store;
    await threadRuns.releaseRun({ runId: 'r1', owner: 'w', fence: 1 });
    const { fence } = await threadRuns.acquireRun('r1', { owner: 'w2', leaseMs: 60_000 });
    await eventLog.raiseFence('r1', fence);
    const before = await seen();
    await expect(
      writer.commitCheckpointWithEvents(checkpoint(2, 'done', 1), {
        runId: 'r1',
        events: [],
        fence: 1,
        end: { events: [runFinish(3)], finish: {} },
      }),
    ).rejects.toSatisfy((error) => AwakenError.hasCode(error, 'stale_claim'));
    expect(await seen()).toEqual(before);
  });

  it('writes nothing at all on a finished log', async () => {
    const writer = await setUp();
    await ctx.store.eventLog.finish('r1', { fence: 1 });
    const before = await seen();
    await expect(
      writer.commitCheckpointWithEvents(checkpoint(2, 'done', 1), {
        runId: 'r1',
        events: [],
        fence: 1,
        end: { events: [runFinish(3)], finish: {} },
      }),
    ).rejects.toSatisfy((error) => AwakenError.hasCode(error, 'conflict'));
    expect(await seen()).toEqual(before);
  });
}
