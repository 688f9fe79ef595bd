import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin } from '../../../test-support/approval';
import { approve } from '../../../test-support/harness';
import { callsThenAnswer } from '../../../test-support/shared-stores';
import { createAgentRuntime } from '../../create-agent-runtime';

/** Memory stores without a control inbox: decisions live in the activation's memory until applied. */
function setup() {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const work = createControllableTool('work');
  const runtime = () =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(callsThenAnswer([{ id: 'a', name: 'work' }])),
          tools: [work.tool],
          plugins: [approvalPlugin(['work'])],
        },
      ],
      stores: { threadRuns: store, eventLog },
    });
  return { store, work, runtime };
}

describe('detach without a control inbox', () => {
  it('a decision given after detach() is refused (not_live), never accepted and dropped', async () => {
    const w = setup();
    const handle = w
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await w.store.getRun('r'))?.status).toBe('waiting');
    handle.detach('deploying');
    expect(await handle.decide(approve('a'))).toEqual([
      expect.objectContaining({ status: 'rejected', reason: 'not_live' }),
    ]);
    await expect(handle.result).rejects.toMatchObject({ code: 'detached' });
    expect(w.work.executions('a')).toBe(0);
  });

  it('a decision accepted just before detach() is kept for the next activation', async () => {
    const w = setup();
    const handle = w
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await w.store.getRun('r'))?.status).toBe('waiting');
    const receipts = await handle.decide(approve('a'));
    handle.detach('deploying');
    expect(receipts).toEqual([expect.objectContaining({ status: 'accepted' })]);
    await expect(handle.result).rejects.toMatchObject({ code: 'detached' });

    const resumed = w.runtime().resumeRun('r');
    await w.work.started('a');
    w.work.release('a', { ok: 1 });
    expect(await resumed.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(w.work.executions('a')).toBe(1);
  });
});
