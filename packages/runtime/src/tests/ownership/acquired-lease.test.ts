import { type RunEventLog, type ThreadRunStore, jointAcquirer } from '@awaken/contract';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve } from '../../../test-support/harness';
import { callsThenAnswer } from '../../../test-support/shared-stores';

/** Counts the calls of each method (the capabilities' getters pass through untouched). */
function counted<T extends object>(target: T, calls: Map<string, number>): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1);
        return value.apply(object, args);
      };
    },
  });
}

function setup() {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const calls = new Map<string, number>();
  const tool = recordingTool('danger');
  const runtime = (stores: { threadRuns: ThreadRunStore; eventLog: RunEventLog }) =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(callsThenAnswer([{ id: 'a', name: 'danger' }])),
          tools: [tool.tool],
          plugins: [approvalPlugin(['danger'])],
        },
      ],
      stores,
    });
  const counting = runtime({ threadRuns: counted(store, calls), eventLog: counted(eventLog, calls) });
  const plain = runtime({ threadRuns: store, eventLog });
  return { store, eventLog, calls, counting, plain };
}

describe('resumeRun with the joint acquisition handed in (acquired)', () => {
  it('loads from its record and seq: no read of the run and no raiseFence of its own', async () => {
    for (const handIn of [false, true]) {
      const w = setup();
      const waiting = await w.plain.runToCompletion({
        agentId: 'agent',
        runId: 'r',
        threadId: 't',
        input: 'go',
      });
      expect(waiting.status).toBe('waiting');
      const joint = jointAcquirer(w.store, w.eventLog);
      if (!joint) throw new Error('memory stores offer the joint acquisition');
      const acquired = await joint.acquireRunWithFence('r', { owner: 'caller', leaseMs: 60_000 });
      const result = await w.counting.resumeRun('r', {
        decisions: [approve('a', { by: 'caller' }, 'd_a')],
        lease: acquired.lease,
        ...(handIn ? { acquired } : {}),
      }).result;
      expect(result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      // the events continue the log exactly (no seq skipped or reused)
      const seqs = (await w.eventLog.read('r')).map((event) => event.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
      expect(w.calls.get('raiseFence') ?? 0).toBe(handIn ? 0 : 1);
      expect(w.calls.get('getRun') ?? 0).toBe(handIn ? 0 : 1);
    }
  });

  it('refuses an acquisition that did not grant the lease given (validation_failed, acquired)', async () => {
    const w = setup();
    await w.plain.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    const joint = jointAcquirer(w.store, w.eventLog);
    if (!joint) throw new Error('memory stores offer the joint acquisition');
    const acquired = await joint.acquireRunWithFence('r', { owner: 'caller', leaseMs: 60_000 });
    expect(() =>
      w.counting.resumeRun('r', { lease: { ...acquired.lease, fence: acquired.lease.fence + 1 }, acquired }),
    ).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'acquired' } }));
  });
});
