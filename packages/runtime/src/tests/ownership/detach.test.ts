import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin } from '../../../test-support/approval';
import { framingViolations } from '../../../test-support/framing';
import { approve, historyIsValid } from '../../../test-support/harness';
import { callsThenAnswer } from '../../../test-support/shared-stores';

function setup(approved: string[] = [], toolExecution: 'sequential' | 'parallel' = 'sequential') {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const work = createControllableTool('work');
  const runtime = () =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(
            callsThenAnswer([
              { id: 'a', name: 'work' },
              { id: 'b', name: 'work' },
            ]),
          ),
          tools: [work.tool],
          plugins: [approvalPlugin(approved)],
          toolExecution,
        },
      ],
      stores: { threadRuns: store, eventLog },
    });
  const history = async () => (await store.readMessages('t')).map((record) => record.message);
  return { store, eventLog, work, runtime, history };
}

describe('detach', () => {
  it('stops at the next safe point: the running call finishes and is checkpointed, the next never starts', async () => {
    const w = setup();
    const handle = w.runtime().run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    await w.work.started('a');
    handle.detach('deploying');
    w.work.release('a', { done: 'a' });
    await expect(handle.result).rejects.toMatchObject({ code: 'detached', details: { reason: 'detach' } });
    expect(w.work.executions('b')).toBe(0);
    expect(await w.store.getRun('r')).toMatchObject({ status: 'running' });
    const events = await w.eventLog.read('r');
    expect(events.some((event) => event.type === 'run_finish')).toBe(false);
    // no terminal event, but the step it opened is closed: readers see well-framed steps
    expect(events.at(-1)).toMatchObject({ type: 'step_end', step: 1 });
    expect(framingViolations(events)).toEqual(['does not close with run_finish']);
    expect(await w.eventLog.isFinished('r')).toBe(false);
    expect((await w.history()).filter((message) => message.role === 'tool')).toEqual([
      expect.objectContaining({ toolCallId: 'a', content: { done: 'a' } }),
    ]);

    // any process continues it: a's committed result is not run again
    const resumed = w.runtime().resumeRun('r');
    await w.work.started('b');
    w.work.release('b', { done: 'b' });
    expect(await resumed.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect([w.work.executions('a'), w.work.executions('b')]).toEqual([1, 1]);
    expect(historyIsValid(await w.history())).toBe(true);
  });

  it('lets a live waiting run go without ending it; shutdown detaches every live run', async () => {
    const w = setup(['work'], 'parallel');
    const runtime = w.runtime();
    const waiting = runtime.run({
      agentId: 'agent',
      runId: 'r',
      threadId: 't',
      input: 'go',
      onSuspend: 'wait',
    });
    const other = runtime.run({
      agentId: 'agent',
      runId: 'r2',
      threadId: 't2',
      input: 'go',
      onSuspend: 'wait',
    });
    await expect.poll(async () => (await w.store.getRun('r'))?.status).toBe('waiting');
    await expect.poll(async () => (await w.store.getRun('r2'))?.status).toBe('waiting');
    await runtime.shutdown();
    await expect(waiting.result).rejects.toMatchObject({ code: 'detached' });
    await expect(other.result).rejects.toMatchObject({ code: 'detached' });
    expect(await w.store.getRun('r')).toMatchObject({ status: 'waiting' });

    // the lease was released: another process resumes at once
    const resumed = w.runtime().resumeRun('r', { decisions: [approve('a'), approve('b')] });
    const started = Promise.all([w.work.started('a'), w.work.started('b')]);
    await started;
    w.work.release('a');
    w.work.release('b');
    expect(await resumed.result).toMatchObject({ status: 'done' });
  });
});
