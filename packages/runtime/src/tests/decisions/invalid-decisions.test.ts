import type { ToolCallDecision } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, collect, createHarness, until } from '../../../test-support/harness';

const calls = (...items: Array<[string, string, unknown]>) => ({
  toolCalls: items.map(([id, name, args]) => ({ id, name, arguments: args })),
});

function waitingHarness() {
  const danger = recordingTool('danger');
  const harness = createHarness(
    { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
    { turns: [calls(['a', 'danger', { n: 1 }]), { text: 'all done' }] },
  );
  return { ...harness, danger };
}

describe('decisions a caller gets wrong', () => {
  it('rejects a decision whose shape is not a ToolCallDecision (e.g. action "reject") and never runs the tool', async () => {
    const { runtime, store, danger } = waitingHarness();
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    const reading = collect(handle);
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    const bad = [
      { toolCallId: 'a', decisionId: 'd1', action: 'reject', result: null, updatedAt: 1 },
      { toolCallId: 'a', action: 'resume', result: true, updatedAt: 1 },
    ] as unknown as ToolCallDecision[];
    const receipts = await handle.decide(bad);
    expect(receipts.map((receipt) => receipt.status)).toEqual(['rejected', 'rejected']);
    expect(receipts[0]).toMatchObject({ reason: 'invalid_payload' });
    expect((receipts[0] as { message: string }).message).toMatch(/action/);
    expect(danger.count()).toBe(0);
    expect((await store.getRun(handle.runId))?.status).toBe('waiting');
    // the call is still suspended (a valid decision is accepted, not `not_suspended`) and, at the
    // end, ran exactly once: the rejected decisions never ran it
    expect(await handle.decide(approve('a'))).toMatchObject([{ status: 'accepted' }]);
    expect(await handle.result).toMatchObject({ status: 'done', response: 'all done' });
    await reading;
    expect(danger.count()).toBe(1);
  });

  it('rejects a malformed decision given to resumeRun without touching the run', async () => {
    const { runtime, danger } = waitingHarness();
    const waiting = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(waiting.status).toBe('waiting');
    const resumed = runtime.resumeRun(waiting.runId, {
      decisions: [{ toolCallId: 'a', decisionId: 'd1', action: 'deny', updatedAt: 1 } as never],
    });
    expect(await resumed.receipts).toMatchObject([{ status: 'rejected', reason: 'invalid_payload' }]);
    expect(await resumed.result).toMatchObject({ status: 'waiting' });
    expect(danger.count()).toBe(0);
  });

  it('does not accept a decision that arrives after the run was cancelled', async () => {
    const { runtime, store, danger } = waitingHarness();
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    const reading = collect(handle);
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    handle.cancel('user left');
    const receipts = await handle.decide(approve('a'));
    expect(receipts).toMatchObject([{ status: 'rejected', reason: 'run_finished' }]);
    expect(await handle.result).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    await reading;
    expect(danger.count()).toBe(0);
  });
});
