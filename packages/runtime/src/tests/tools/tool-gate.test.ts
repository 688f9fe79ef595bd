import { type Plugin, toolFailure, toolSuccess } from '@awaken/contract';
import { countExecutions, createControllableTool, echoTool, pendingTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createHarness, historyIsValid, statusAlwaysDerived, storedRun } from '../../../test-support/harness';
import { readToolCallStates } from '@awaken/contract';

const calls = (...items: Array<[string, string, unknown]>) => ({
  toolCalls: items.map(([id, name, args]) => ({ id, name, arguments: args })),
});
const gate = (decide: Plugin['hooks']['toolGate']): Plugin => ({ id: 'gate', hooks: { toolGate: decide } });

describe('ToolGate and executors', () => {
  it('blocks a call: it fails with the reason, the tool never runs and the run ends blocked', async () => {
    const echo = countExecutions(echoTool);
    const { runtime, store } = createHarness(
      { tools: [echo.tool], plugins: [gate(() => ({ type: 'block', reason: 'forbidden' }))] },
      { turns: [calls(['a', 'echo', { text: '1' }], ['b', 'echo', { text: '2' }])] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({ status: 'done', termination: { type: 'blocked', reason: 'forbidden' } });
    expect(echo.count()).toBe(0);
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages[2]).toMatchObject({ toolCallId: 'a', outcome: 'failed' });
    expect(JSON.stringify(messages[2])).toContain('forbidden');
    expect(messages[3]).toMatchObject({ toolCallId: 'b', outcome: 'cancelled' });
    expect(historyIsValid(messages)).toBe(true);
  });

  it('continues the run after a block with continueRun', async () => {
    const { runtime } = createHarness(
      { tools: [echoTool], plugins: [gate(() => ({ type: 'block', reason: 'no', continueRun: true }))] },
      { turns: [calls(['a', 'echo', { text: '1' }]), { text: 'fine' }] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({ termination: { type: 'natural_end' }, response: 'fine' });
  });

  it('uses a SetResult without executing the tool', async () => {
    const echo = countExecutions(echoTool);
    const { runtime, store } = createHarness(
      {
        tools: [echo.tool],
        plugins: [gate(() => ({ type: 'set_result', result: toolSuccess({ cached: true }) }))],
      },
      { turns: [calls(['a', 'echo', { text: '1' }]), { text: 'ok' }] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(echo.count()).toBe(0);
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages[2]).toMatchObject({ outcome: 'succeeded', content: { cached: true } });
  });

  it('cancels a call from the gate and tells the model the reason', async () => {
    const { runtime, model } = createHarness(
      { tools: [echoTool], plugins: [gate(() => ({ type: 'cancel', reason: 'declined by policy' }))] },
      { turns: [calls(['a', 'echo', { text: '1' }]), { text: 'ok' }] },
    );
    await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const toolMessage = (model as unknown as { requests: Array<{ messages: readonly unknown[] }> })
      .requests[1]?.messages[2];
    expect(toolMessage).toMatchObject({ outcome: 'cancelled', content: { reason: 'declined by policy' } });
  });

  it('re-evaluates the gate for a call after earlier calls of the batch committed', async () => {
    const seenBatches: string[][] = [];
    const plugin = gate((context) => {
      seenBatches.push(context.batch.map((call) => `${call.callId}:${call.status}`));
      const firstFailed = context.batch.some((call) => call.callId === 'a' && call.status === 'failed');
      return context.call.id === 'b' && firstFailed
        ? { type: 'set_result', result: toolFailure('a failed, skipping b') }
        : undefined;
    });
    const failing = { ...echoTool, name: 'fails', execute: () => toolFailure('nope') };
    const echo = countExecutions(echoTool);
    const { runtime } = createHarness(
      { tools: [failing, echo.tool], plugins: [plugin] },
      { turns: [calls(['a', 'fails', { text: '1' }], ['b', 'echo', { text: '2' }]), { text: 'ok' }] },
    );
    await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(seenBatches).toEqual([
      ['a:new', 'b:new'],
      ['a:failed', 'b:new'],
    ]);
    expect(echo.count()).toBe(0);
  });

  it('sequential: stops at the first suspension and leaves later calls new', async () => {
    const echo = countExecutions(echoTool);
    const { runtime, store, snapshots } = createHarness(
      { tools: [echo.tool, pendingTool] },
      {
        turns: [
          calls(
            ['a', 'echo', { text: '1' }],
            ['q', 'ask_human', { question: '?' }],
            ['c', 'echo', { text: '3' }],
          ),
        ],
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.status).toBe('waiting');
    const states = readToolCallStates(await storedRun(store, result.runId));
    expect(states.map((state) => `${state.callId}:${state.status}`)).toEqual([
      'a:succeeded',
      'q:suspended',
      'c:new',
    ]);
    expect(echo.count('c')).toBe(0);
    expect(statusAlwaysDerived(snapshots)).toBe(true);
  });

  it('parallel: a suspension or a failure does not stop the other calls', async () => {
    const echo = countExecutions(echoTool);
    const { runtime, store, snapshots } = createHarness(
      { tools: [echo.tool, pendingTool], toolExecution: 'parallel' },
      {
        turns: [
          calls(
            ['q', 'ask_human', { question: '?' }],
            ['x', 'echo', { text: 5 }],
            ['c', 'echo', { text: '3' }],
          ),
        ],
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const states = readToolCallStates(await storedRun(store, result.runId));
    expect(states.map((state) => `${state.callId}:${state.status}`)).toEqual([
      'q:suspended',
      'x:failed',
      'c:succeeded',
    ]);
    expect(echo.count('c')).toBe(1);
    expect(result.waiting?.tickets.map((ticket) => ticket.toolCallId)).toEqual(['q']);
    expect(statusAlwaysDerived(snapshots)).toBe(true);
  });

  it('parallel: allowed calls really run at the same time', async () => {
    const controlled = createControllableTool('work');
    const { runtime } = createHarness(
      { tools: [controlled.tool], toolExecution: 'parallel' },
      { turns: [calls(['a', 'work', {}], ['b', 'work', {}]), { text: 'ok' }] },
    );
    const done = runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    await Promise.all([controlled.started('a'), controlled.started('b')]);
    controlled.release('b');
    controlled.release('a');
    expect((await done).status).toBe('done');
  });

  it('suspends from the gate with a ticket and marks the run waiting', async () => {
    const echo = countExecutions(echoTool);
    const plugin = gate((context) =>
      context.resume
        ? undefined
        : {
            type: 'suspend',
            suspension: {
              id: `perm_${context.call.id}`,
              action: 'approve',
              message: 'allow echo?',
              parameters: {},
            },
          },
    );
    const { runtime } = createHarness(
      { tools: [echo.tool], plugins: [plugin] },
      { turns: [calls(['a', 'echo', { text: '1' }])] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({
      status: 'waiting',
      termination: { type: 'suspended' },
      waiting: { ticketIds: ['perm_a'] },
    });
    expect(echo.count()).toBe(0);
  });
});
