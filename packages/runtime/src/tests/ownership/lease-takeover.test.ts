import { AwakenError, type RunEventLog, type ThreadRunStore } from '@awaken/contract';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, historyIsValid } from '../../../test-support/harness';
import { callsThenAnswer } from '../../../test-support/shared-stores';

/** Records the error code of every rejected write, so a test can see what the store refused. */
function watched<T extends object>(target: T, rejected: string[]): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await value.apply(object, args);
        } catch (error) {
          rejected.push(`${String(key)}:${AwakenError.isInstance(error) ? error.code : 'raw'}`);
          throw error;
        }
      };
    },
  });
}

function setup(withEventLog: boolean) {
  let time = 1_000_000;
  const clock = () => time;
  const store = createMemoryThreadRunStore({ now: clock });
  const eventLog = withEventLog ? createMemoryRunEventLog({ now: clock }) : undefined;
  const slow = createControllableTool('danger');
  const quick = recordingTool('danger');
  const rejected: string[] = [];
  const runtime = (tool: typeof quick.tool, stores: { threadRuns: ThreadRunStore; eventLog?: RunEventLog }) =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(callsThenAnswer([{ id: 'a', name: 'danger' }])),
          tools: [tool],
          plugins: [approvalPlugin(['danger'])],
        },
      ],
      stores,
      // long enough that the first owner never renews during the test: its lease lapses on the store clock
      runLease: { leaseMs: 60_000 },
    });
  const a = runtime(slow.tool, {
    threadRuns: watched(store, rejected),
    ...(eventLog ? { eventLog: watched(eventLog, rejected) } : {}),
  });
  const b = runtime(quick.tool, { threadRuns: store, ...(eventLog ? { eventLog } : {}) });
  return { store, eventLog, slow, quick, rejected, a, b, advance: (ms: number) => (time += ms) };
}

describe('an activation whose lease was taken over', () => {
  it.each([
    ['with an event log: its next event append', true, 'append:stale_claim'],
    ['without one: its next checkpoint', false, 'commitCheckpoint:stale_claim'],
  ])('is refused at %s and stops; the new owner finishes the run', async (_label, withEventLog, refusal) => {
    const w = setup(withEventLog);
    const waiting = await w.b.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    expect(waiting.status).toBe('waiting');
    const first = w.a.resumeRun('r', { decisions: [approve('a', { by: 'a' }, 'd_a')] });
    await w.slow.started('a');

    w.advance(60_001); // A's lease lapses on the store's clock while its tool runs
    const second = await w.b.resumeRun('r', { decisions: [approve('a', { by: 'b' }, 'd_b')] }).result;
    expect(second).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    const stored = await w.store.getRun('r');
    const events = await w.eventLog?.read('r');
    const messages = await w.store.readMessages('t');

    w.slow.release('a', { late: true });
    await expect(first.result).rejects.toMatchObject({ code: 'detached', details: { reason: 'lease_lost' } });
    expect(w.rejected).toEqual([refusal]);
    expect(await w.store.getRun('r')).toEqual(stored);
    expect(await w.store.readMessages('t')).toEqual(messages);
    expect(await w.eventLog?.read('r')).toEqual(events);
    const history = messages.map((record) => record.message);
    expect(historyIsValid(history)).toBe(true);
    expect(history.filter((message) => message.role === 'tool')).toEqual([
      expect.objectContaining({ toolCallId: 'a', content: { ran: 'danger', args: {} } }),
    ]);
    expect(w.quick.count('a')).toBe(1);
  });

  it('aborts its running tools at once when a renewal finds the run taken over', async () => {
    let time = 1_000_000;
    const store = createMemoryThreadRunStore({ now: () => time });
    const slow = createControllableTool('danger');
    const runtime = (leaseMs: number) =>
      createAgentRuntime({
        agents: [
          {
            id: 'agent',
            model: createScriptedModel(callsThenAnswer([{ id: 'a', name: 'danger' }])),
            tools: [slow.tool],
            plugins: [approvalPlugin(['danger'])],
          },
        ],
        stores: { threadRuns: store },
        runLease: { leaseMs },
      });
    const owner = runtime(30);
    await owner.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    const first = owner.resumeRun('r', { decisions: [approve('a')] });
    await slow.started('a');
    time += 1_000; // lapsed; another process takes the run (its lease is long)
    const lease = await store.acquireRun('r', { owner: 'elsewhere', leaseMs: 60_000 });
    expect(lease.fence).toBeGreaterThan(1);
    // the owner's next renewal (every 10 ms) is refused: the tool's signal fires, nothing is written
    await expect(first.result).rejects.toMatchObject({ code: 'detached', details: { reason: 'lease_lost' } });
    expect(slow.executions('a')).toBe(1);
    expect(await store.getRun('r')).toMatchObject({ status: 'waiting' });
  });
});
