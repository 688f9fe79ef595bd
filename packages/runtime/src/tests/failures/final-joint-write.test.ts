import {
  AwakenError,
  type Checkpoint,
  type CheckpointEvents,
  type CheckpointWithEvents,
  type ThreadRunStore,
  jointCheckpointWriter,
} from '@awaken/contract';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';

// The run's end folded into the final checkpoint's joint write (CheckpointEnd): step_end, run_finish
// and the log's finish go with the stored outcome in one atomic write. A write that fails before it
// lands or whose reply is lost after it landed never leaves a finished log (or a run_finish) without
// the stored outcome, nor a stored outcome whose run_finish is lost: the next activation finishes it.

type Failure = 'before' | 'after';

/**
 * The store's joint writer for `log`, failing the write that ends the run once: `before` it lands
 * (nothing written), or `after` it landed (the reply lost). Records every joint write's events.
 */
function failingEnd(inner: ThreadRunStore, failure: Failure, writes: string[][]): ThreadRunStore {
  let failed = false;
  const store = Object.create(inner) as ThreadRunStore & { checkpointWithEvents(log: unknown): unknown };
  store.checkpointWithEvents = (log) => {
    const real = jointCheckpointWriter(inner, log as never) as CheckpointWithEvents;
    return {
      async commitCheckpointWithEvents(checkpoint: Checkpoint, events: CheckpointEvents) {
        writes.push([...events.events, ...(events.end?.events ?? [])].map((event) => event.type));
        const ending = events.end?.finish !== undefined && !failed;
        if (ending && failure === 'before') {
          failed = true;
          throw new AwakenError('store_failure', 'redis: connection reset');
        }
        const outcome = await real.commitCheckpointWithEvents(checkpoint, events);
        if (ending) {
          failed = true;
          throw new AwakenError('store_failure', 'redis: connection reset (after the write landed)');
        }
        return outcome;
      },
    };
  };
  return store;
}

function setup(failure: Failure) {
  const store = createMemoryThreadRunStore({ jointCheckpoints: true });
  const eventLog = createMemoryRunEventLog();
  const writes: string[][] = [];
  const runtime = (wrapped: boolean) =>
    createAgentRuntime({
      agents: [{ id: 'agent', model: createScriptedModel(() => ({ text: 'hello' })) }],
      stores: { threadRuns: wrapped ? failingEnd(store, failure, writes) : store, eventLog },
    });
  return { store, eventLog, runtime, writes };
}

describe('the final joint write with the run end', () => {
  it('writes step_end, the done checkpoint, run_finish and the finish in one write', async () => {
    const { store, eventLog, runtime, writes } = setup('before');
    const healthy = runtime(false);
    const result = await healthy.runToCompletion({
      agentId: 'agent',
      runId: 'r',
      threadId: 't',
      input: 'hi',
    });
    expect(result.status).toBe('done');
    // the healthy runtime takes the memory store's own joint write: read what it left
    const log = await eventLog.read('r');
    expect(log.slice(-2).map((event) => event.type)).toEqual(['step_end', 'run_finish']);
    expect(await eventLog.isFinished('r')).toBe(true);
    expect(await store.getRun('r')).toMatchObject({ status: 'done' });
    expect(writes).toEqual([]);
    // through the recording writer: the last write carries the step_end and the run's end
    const recorded = runtime(true);
    await recorded
      .runToCompletion({ agentId: 'agent', runId: 'r2', threadId: 't2', input: 'hi' })
      .catch(() => undefined);
    expect(writes.at(-1)).toEqual(['step_end', 'run_finish']);
  });

  it.each(['resumeRun', 'cancelRun'] as const)(
    'failing before it lands: no run_finish, an open log, and %s finishes the run once',
    async (recovery) => {
      const { store, eventLog, runtime } = setup('before');
      const handle = runtime(true).run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'hi' });
      await expect(handle.result).rejects.toMatchObject({ code: 'store_failure' });
      expect((await eventLog.read('r')).some((event) => event.type === 'run_finish')).toBe(false);
      expect(await eventLog.isFinished('r')).toBe(false);
      expect(await store.getRun('r')).toMatchObject({ status: 'running' });

      const healthy = runtime(false);
      const result =
        recovery === 'resumeRun' ? await healthy.resumeRun('r').result : await healthy.cancelRun('r', 'stop');
      expect(result.status).toBe('done');
      const log = await eventLog.read('r');
      expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
      expect(log.at(-1)).toMatchObject({
        type: 'run_finish',
        status: 'done',
        termination: result.termination,
      });
      expect(log.filter((event) => event.type === 'run_finish' && event.status === 'done')).toHaveLength(1);
      expect(await eventLog.isFinished('r')).toBe(true);
      expect(await store.getRun('r')).toMatchObject({ status: 'done', termination: result.termination });
    },
  );

  it('its reply lost after it landed: the stored outcome has its run_finish and a finished log', async () => {
    const { store, eventLog, runtime } = setup('after');
    const handle = runtime(true).run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'hi' });
    await expect(handle.result).rejects.toMatchObject({ code: 'store_failure' });
    const stored = await store.getRun('r');
    expect(stored).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    const log = await eventLog.read('r');
    expect(log.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    expect(log.filter((event) => event.type === 'run_finish')).toHaveLength(1);
    expect(await eventLog.isFinished('r')).toBe(true);
    // the next activation finds the run done and its log complete: nothing is appended again
    const again = await runtime(false).resumeRun('r').result;
    expect(again).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(await eventLog.read('r')).toEqual(log);
    expect(await store.getRun('r')).toEqual(stored);
  });
});
