import { AwakenError, approve } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../../agent-tool';
import { childIdsOf } from '../../internal/child-ids/child-ids';
import { until } from '../../../test-support/harness';
import { createTestStore } from '../../../test-support/recording-store';
import { delegatingModel, janitorModel, subAgentHarness } from '../../../test-support/sub-agents';

const janitorRunOf = (parentRunId: string) =>
  childIdsOf({ runId: parentRunId, step: 1, callId: 'delegate_0' }).runId;

describe('a child run under its parent', () => {
  it('a parent call executed again (its activation detached mid-child, resumed by another runtime) continues the same child', async () => {
    const store = createTestStore();
    let secondTurn = false;
    const first = subAgentHarness({
      store,
      janitor: janitorModel({ slowCall: { call: 2, ms: 80 }, onCall: (call) => (secondTurn ||= call === 2) }),
    });
    const handle = first.runtime.run({ agentId: 'assistant', input: 'delete /tmp/report.txt' });
    await until(() => secondTurn);
    handle.detach('simulated crash');
    await expect(handle.result).rejects.toMatchObject({ code: 'detached' });
    const childId = janitorRunOf(handle.runId);
    // the child stopped with its parent, at its last checkpoint (its second model turn committed)
    expect((await store.getRun(childId))?.status).toBe('running');
    expect([first.listFiles.count(), first.janitor.callCount]).toEqual([1, 2]);

    const other = subAgentHarness({ store });
    const resumed = await other.runtime.resumeRun(handle.runId).result;
    expect(resumed.status).toBe('waiting');
    expect(resumed.waiting!.tickets[0]?.nested?.runId).toBe(childId);
    // nothing the child committed ran again, and no second child was started
    expect([other.listFiles.count(), other.janitor.callCount, other.parentModel.callCount]).toEqual([
      0, 0, 0,
    ]);
    const runs = await store.listRuns((await store.getRun(childId))!.threadId);
    expect(runs.items.map((run) => run.runId)).toEqual([childId]);

    const done = await other.runtime.resumeRun(handle.runId, {
      decisions: [approve(resumed.waiting!.tickets[0]!)],
    }).result;
    expect(done.response).toContain('janitor deleted /tmp/report.txt.');
    expect(other.deleteFile.count()).toBe(1);
  });

  it("waits for a crashed process's lease on the child to lapse instead of failing the call", async () => {
    const store = createTestStore();
    let secondTurn = false;
    const first = subAgentHarness({
      store,
      janitor: janitorModel({ slowCall: { call: 2, ms: 50 }, onCall: (call) => (secondTurn ||= call === 2) }),
    });
    const handle = first.runtime.run({ agentId: 'assistant', input: 'delete /tmp/report.txt' });
    await until(() => secondTurn);
    handle.detach('simulated crash');
    await expect(handle.result).rejects.toMatchObject({ code: 'detached' });
    const childId = janitorRunOf(handle.runId);
    // a process that died holding the child: its lease lapses only after a while
    await store.acquireRun(childId, { owner: 'dead-process', leaseMs: 300 });
    const other = subAgentHarness({ store });
    const started = Date.now();
    const resumed = await other.runtime.resumeRun(handle.runId).result;
    expect(resumed.status).toBe('waiting');
    expect(resumed.waiting!.tickets[0]?.nested?.runId).toBe(childId);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('cancelling a waiting parent cancels the child it waits on, at any depth', async () => {
    const manager = delegatingModel([['janitor', 'delete /tmp/deep.txt']]);
    const { runtime, store } = subAgentHarness({
      delegations: [['manager', 'delete /tmp/deep.txt']],
      parentTools: [agentTool('manager')],
      agents: [{ id: 'manager', model: manager, tools: [agentTool('janitor')] }],
    });
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean' });
    const managerId = first.waiting!.tickets[0]!.nested!.runId;
    const janitorId = (await store.getRun(managerId))!.waiting!.tickets[0]!.nested!.runId;
    const cancelled = await runtime.cancelRun(first.runId, 'the user changed their mind');
    expect(cancelled.termination).toEqual({ type: 'cancelled', reason: 'the user changed their mind' });
    for (const runId of [managerId, janitorId]) {
      const child = await store.getRun(runId);
      expect(child).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    }
  });

  it('cancelling a running parent aborts its child inline: both end cancelled, the child stops at once', async () => {
    let secondTurn = false;
    const { runtime, store, janitor, deleteFile } = subAgentHarness({
      janitor: janitorModel({
        slowCall: { call: 2, ms: 5_000 },
        onCall: (call) => (secondTurn ||= call === 2),
      }),
    });
    const handle = runtime.run({ agentId: 'assistant', input: 'delete /tmp/report.txt' });
    await until(() => secondTurn);
    const started = Date.now();
    handle.cancel('stop everything');
    expect((await handle.result).termination).toEqual({ type: 'cancelled', reason: 'stop everything' });
    expect(Date.now() - started).toBeLessThan(4_000);
    const child = await store.getRun(janitorRunOf(handle.runId));
    expect(child).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'stop everything' },
    });
    expect([janitor.callCount, deleteFile.count()]).toEqual([2, 0]);
  });

  it('a child that fails fails the parent call: the parent model reads the failure', async () => {
    const { runtime } = subAgentHarness({
      janitor: janitorModel({ slowCall: { call: 9, ms: 0 } }),
      janitorAgent: {
        model: {
          modelId: 'broken',
          stream: () => {
            throw new AwakenError('model_permanent', 'no such model');
          },
        },
      },
    });
    const done = await runtime.runToCompletion({ agentId: 'assistant', input: 'delete /tmp/x' });
    expect(done.status).toBe('done');
    expect(done.response).toContain('the \\"janitor\\" agent failed: no such model');
  });

  it('an agent tool naming an agent the runtime does not have is refused when the runtime is created', () => {
    expect(() => subAgentHarness({ parentTools: [agentTool('ghost')] })).toThrow(
      /agent "assistant" tool "ghost" runs agent "ghost", which the runtime does not have/,
    );
  });
});
