import { pendingTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, askTwiceTool, lookupTool, recordingTool } from '../../../test-support/approval';
import {
  approve,
  collect,
  createHarness,
  historyIsValid,
  reject,
  statusAlwaysDerived,
  storedRun,
  until,
} from '../../../test-support/harness';
import { readToolCallStates } from '@awaken/contract';

const calls = (...items: Array<[string, string, unknown]>) => ({
  toolCalls: items.map(([id, name, args]) => ({ id, name, arguments: args })),
});

function parallelApprovals(extra: Parameters<typeof createHarness>[1] = {}) {
  const danger = recordingTool('danger');
  const harness = createHarness(
    { tools: [danger.tool], plugins: [approvalPlugin(['danger'])], toolExecution: 'parallel' },
    { turns: [calls(['a', 'danger', { n: 1 }], ['b', 'danger', { n: 2 }]), { text: 'all done' }], ...extra },
  );
  return { ...harness, danger };
}

describe('decisions', () => {
  it('partial resume: one decision resolves its call and the run keeps waiting for the other', async () => {
    const { runtime, store, danger, snapshots } = parallelApprovals();
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    const reading = collect(handle);
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    expect(await handle.decide(approve('a'))).toEqual([
      { toolCallId: 'a', ticketId: 'ticket_1:a', decisionId: 'd_a', status: 'accepted' },
    ]);
    await until(() => danger.count('a') === 1);
    await until(async () =>
      readToolCallStates(await storedRun(store, handle.runId)).some(
        (c) => c.callId === 'a' && c.status === 'succeeded',
      ),
    );
    expect((await store.getRun(handle.runId))?.status).toBe('waiting');
    expect(danger.count('b')).toBe(0);
    await handle.decide(approve('b'));
    const result = await handle.result;
    const events = await reading;
    expect(result).toMatchObject({ status: 'done', response: 'all done' });
    expect(
      events
        .filter((event) => event.type === 'run_start')
        .map((event) => (event as { resumed: boolean }).resumed),
    ).toEqual([false, true, true]);
    expect(danger.count()).toBe(2);
    expect(statusAlwaysDerived(snapshots)).toBe(true);
  });

  it('applies a batch of decisions at once', async () => {
    const { runtime, danger } = parallelApprovals();
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(first.waiting?.ticketIds).toEqual(['ticket_1:a', 'ticket_1:b']);
    const resumed = runtime.resumeRun(first.runId, { decisions: [approve('a'), approve('b')] });
    expect(await resumed.receipts).toHaveLength(2);
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'all done' });
    expect(danger.count()).toBe(2);
  });

  it('re-suspends a replayed call with a new ticket', async () => {
    const { runtime } = createHarness(
      { tools: [askTwiceTool(2)] },
      { turns: [calls(['q', 'ask_twice', {}]), { text: 'ok' }] },
    );
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(first.waiting?.ticketIds).toEqual(['ask_q_0']);
    const second = await runtime.resumeRun(first.runId, { decisions: [approve('q', { round: 1 }, 'd1')] })
      .result;
    expect(second).toMatchObject({ status: 'waiting', waiting: { ticketIds: ['ask_q_1'] } });
    const third = await runtime.resumeRun(first.runId, { decisions: [approve('q', { round: 2 }, 'd2')] })
      .result;
    expect(third).toMatchObject({ status: 'done', response: 'ok' });
  });

  it('cancel: the call is cancelled, never executed, and the model is told the reason', async () => {
    const { runtime, danger, model } = parallelApprovals();
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const result = await runtime.resumeRun(first.runId, {
      decisions: [approve('a'), reject('b', 'too risky')],
    }).result;
    expect(result.status).toBe('done');
    expect(danger.count('b')).toBe(0);
    const request = (model as unknown as { requests: Array<{ messages: Array<{ role: string }> }> })
      .requests[1];
    expect(request?.messages.filter((message) => message.role === 'tool')).toEqual([
      expect.objectContaining({ toolCallId: 'a', outcome: 'succeeded' }),
      expect.objectContaining({
        toolCallId: 'b',
        outcome: 'cancelled',
        content: { cancelled: true, reason: 'too risky' },
      }),
    ]);
    expect(historyIsValid(request?.messages ?? [])).toBe(true);
  });

  it('replay_tool_call re-executes with the original arguments', async () => {
    const danger = recordingTool('danger');
    const { runtime } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      { turns: [calls(['a', 'danger', { path: '/x' }]), { text: 'ok' }] },
    );
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    await runtime.resumeRun(first.runId, { decisions: [approve('a', { other: true })] }).result;
    expect(danger.calls).toEqual([{ callId: 'a', args: { path: '/x' } }]);
  });

  it('use_decision_as_tool_result uses the payload as the result without executing', async () => {
    const { runtime, store } = createHarness(
      { tools: [lookupTool] },
      { turns: [calls(['k', 'lookup', { key: 'color' }]), { text: 'ok' }] },
    );
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(first.waiting?.tickets[0]?.resumeMode).toBe('use_decision_as_tool_result');
    const done = await runtime.resumeRun(first.runId, { decisions: [approve('k', 'blue')] }).result;
    const tool = (await store.readMessages(done.threadId)).find((record) => record.message.role === 'tool');
    expect(tool?.message).toMatchObject({ outcome: 'succeeded', content: 'blue' });
    expect(readToolCallStates(await storedRun(store, done.runId))[0]?.executions).toBe(1);
  });

  it('pass_decision_to_tool executes the tool with the payload as its arguments', async () => {
    const danger = recordingTool('danger');
    const plugin = approvalPlugin(['danger']);
    const gate = plugin.hooks.toolGate!;
    plugin.hooks.toolGate = async (context) => {
      const decision = await gate(context);
      return decision?.type === 'suspend' ? { ...decision, resumeMode: 'pass_decision_to_tool' } : decision;
    };
    const { runtime } = createHarness(
      { tools: [danger.tool], plugins: [plugin] },
      { turns: [calls(['a', 'danger', { path: '/x' }]), { text: 'ok' }] },
    );
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    await runtime.resumeRun(first.runId, { decisions: [approve('a', { path: '/safe' })] }).result;
    expect(danger.calls).toEqual([{ callId: 'a', args: { path: '/safe' } }]);
  });

  it('rejects a payload that does not match the response schema and keeps the call suspended', async () => {
    const schema = { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] };
    const danger = recordingTool('danger');
    const { runtime, store } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'], schema)] },
      { turns: [calls(['a', 'danger', {}]), { text: 'ok' }] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    const [bad] = await handle.decide(approve('a', { approved: 'yes' }, 'bad'));
    expect(bad).toMatchObject({ status: 'rejected', reason: 'invalid_payload' });
    expect((bad as { message: string }).message).toContain('approved');
    expect(danger.count()).toBe(0);
    expect(readToolCallStates(await storedRun(store, handle.runId))[0]?.status).toBe('suspended');
    expect(await handle.decide(approve('a', { approved: true }, 'good'))).toMatchObject([
      { status: 'accepted' },
    ]);
    expect(await handle.result).toMatchObject({ status: 'done' });
    expect(danger.count()).toBe(1);
  });

  it('is idempotent by decisionId and rejects unknown or no-longer-suspended calls', async () => {
    const { runtime, store, danger } = parallelApprovals();
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    const receipts = await handle.decide([
      approve('a', {}, 'x1'),
      approve('a', {}, 'x1'),
      approve('ghost', {}, 'x2'),
    ]);
    expect(receipts.map((receipt) => receipt.status)).toEqual(['accepted', 'duplicate', 'rejected']);
    expect(receipts[2]).toMatchObject({ reason: 'unknown_tool_call' });
    await until(() => danger.count('a') === 1);
    await until(async () =>
      readToolCallStates(await storedRun(store, handle.runId)).some(
        (c) => c.callId === 'a' && c.status === 'succeeded',
      ),
    );
    expect(await handle.decide(approve('a', {}, 'x1'))).toMatchObject([{ status: 'duplicate' }]);
    const late = await handle.decide(approve('a', {}, 'x3'));
    expect(late).toMatchObject([{ status: 'rejected', reason: 'not_suspended' }]);
    expect(
      readToolCallStates(await storedRun(store, handle.runId)).find((c) => c.callId === 'b')?.status,
    ).toBe('suspended');
    await handle.decide(reject('b'));
    await handle.result;
    expect(danger.count()).toBe(1);
  });

  it('sequential: calls left new behind a suspension run in order once it resolves', async () => {
    const danger = recordingTool('danger');
    const safe = recordingTool('safe');
    const order: string[] = [];
    const { runtime } = createHarness(
      {
        tools: [danger.tool, safe.tool],
        plugins: [
          approvalPlugin(['danger']),
          { id: 'order', hooks: { beforeToolExecute: (context) => void order.push(context.call.id) } },
        ],
      },
      {
        turns: [
          calls(['s1', 'safe', {}], ['d', 'danger', {}], ['s2', 'safe', {}], ['s3', 'safe', {}]),
          { text: 'ok' },
        ],
      },
    );
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(order).toEqual(['s1']);
    await runtime.resumeRun(first.runId, { decisions: [approve('d')] }).result;
    expect(order).toEqual(['s1', 'd', 's2', 's3']);
    expect(safe.count()).toBe(3);
  });

  it('rejects decisions on a handle whose activation returned, pointing at resumeRun', async () => {
    const { runtime } = createHarness(
      { tools: [pendingTool] },
      { turns: [calls(['q', 'ask_human', { question: '?' }])] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    await handle.result;
    const [receipt] = await handle.decide(approve('q'));
    expect(receipt).toMatchObject({ status: 'rejected', reason: 'not_live' });
    expect((receipt as { message: string }).message).toContain('resumeRun');
  });

  it('rejects decisions on the handle of a finished run as run_finished', async () => {
    const { runtime } = createHarness({ tools: [pendingTool] }, { turns: [{ text: 'done' }] });
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    await handle.result;
    const [receipt] = await handle.decide(approve('q'));
    expect(receipt).toMatchObject({ status: 'rejected', reason: 'run_finished' });
  });
});
