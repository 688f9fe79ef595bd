import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it, vi } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve } from '../../../test-support/harness';
import { callsThenAnswer } from '../../../test-support/shared-stores';

function setup() {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const danger = recordingTool('danger');
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        model: createScriptedModel(callsThenAnswer([{ id: 'a', name: 'danger' }])),
        tools: [danger.tool],
        plugins: [approvalPlugin(['danger'])],
      },
    ],
    stores: { threadRuns: store, eventLog },
  });
  return { store, eventLog, danger, runtime };
}

describe('a lease handed in by a caller that already holds the run (e.g. under its mailbox claim)', () => {
  it('runs the activation under that fence and leaves the lease to its holder', async () => {
    const { store, eventLog, danger, runtime } = setup();
    const waiting = await runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    expect(waiting.status).toBe('waiting');
    const lease = await store.acquireRun('r', { owner: 'dispatch-42', leaseMs: 60_000 });
    // nobody else gets the run, not even this runtime without the lease
    await expect(runtime.resumeRun('r').result).rejects.toMatchObject({ code: 'run_busy' });
    const done = await runtime.resumeRun('r', { lease, decisions: [approve('a')] }).result;
    expect(done).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(danger.count('a')).toBe(1);
    expect(await eventLog.isFinished('r')).toBe(true);
    // the runtime neither renewed nor released it: the holder still holds it and releases it itself
    await expect(store.acquireRun('r', { owner: 'other', leaseMs: 1_000 })).rejects.toMatchObject({
      code: 'run_busy',
    });
    const { leaseUntil: _until, ...proof } = lease;
    expect(await store.releaseRun(proof)).toBe(true);
  });

  it('refuses a lease of another run, and stops at once under a lease that was taken over', async () => {
    const { store, runtime } = setup();
    await runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    await runtime.runToCompletion({ agentId: 'agent', runId: 'other', input: 'go' });
    const lease = await store.acquireRun('other', { owner: 'dispatch-1', leaseMs: 1 });
    expect(() => runtime.resumeRun('r', { lease })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    const stale = await store.acquireRun('r', { owner: 'dispatch-2', leaseMs: 1 });
    // the 1 ms lease lapses; another dispatch takes the run
    await vi.waitFor(() => store.acquireRun('r', { owner: 'dispatch-3', leaseMs: 60_000 }));
    await expect(
      runtime.resumeRun('r', { lease: stale, decisions: [approve('a')] }).result,
    ).rejects.toMatchObject({
      code: 'detached',
      details: { reason: 'lease_lost' },
    });
    expect(await store.getRun('r')).toMatchObject({ status: 'waiting' });
  });
});
