import { createTestStore } from '../../../test-support/recording-store';
import { type Plugin, defineStateKey, toolCallStatePath } from '@awaken/contract';
import { echoTool, pendingTool } from '@awaken/testing';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { readToolCallStates } from '@awaken/contract';
import { createHarness } from '../../../test-support/harness';

describe('checkpoints', () => {
  it('writes a checkpoint at each seed 001 trigger, readable back from the store', async () => {
    const store = createTestStore();
    const { runtime } = createHarness(
      { tools: [echoTool] },
      {
        store,
        turns: [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }],
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(store.checkpoints.map((checkpoint) => checkpoint.trigger)).toEqual([
      'user_message',
      'assistant_turn_committed',
      'tool_results_committed',
      'assistant_turn_committed',
      'run_finished',
    ]);
    expect(
      store.checkpoints.map((checkpoint) => checkpoint.messages.map((message) => message.message.role)),
    ).toEqual([['user'], ['assistant'], ['tool'], ['assistant'], []]);
    expect(store.checkpoints.map((checkpoint) => checkpoint.run.version)).toEqual([1, 2, 3, 4, 5]);
    const stored = await store.getRun(result.runId);
    expect(stored).toEqual(store.checkpoints.at(-1)?.run);
    expect(stored).toMatchObject({
      status: 'done',
      termination: { type: 'natural_end' },
      response: 'done',
      steps: 2,
    });
    expect(stored).toMatchObject({ inputRange: { from: 1, to: 1 }, outputRange: { from: 2, to: 4 } });
    expect(stored?.state.__run).toMatchObject({ id: result.runId, status: 'done' });
    const [scope] = Object.entries((stored?.state.__tool_call_scope ?? {}) as Record<string, unknown>);
    expect(toolCallStatePath(scope?.[0] ?? '')).toBe('__tool_call_scope.c1.tool_call_state');
    expect(readToolCallStates(stored!)).toMatchObject([
      { callId: 'c1', status: 'succeeded', executions: 1, resultCommitted: true },
    ]);
    const afterAssistant = store.checkpoints[1]?.run;
    expect(readToolCallStates(afterAssistant!)).toMatchObject([{ callId: 'c1', status: 'new' }]);
  });

  it('stores the suspended call, its ticket and the waiting state when a call suspends', async () => {
    const store = createTestStore();
    const { runtime } = createHarness(
      { tools: [pendingTool] },
      { store, turns: [{ toolCalls: [{ id: 'q1', name: 'ask_human', arguments: { question: 'color?' } }] }] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({ status: 'waiting', termination: { type: 'suspended' } });
    const stored = await store.getRun(result.runId);
    expect(stored?.status).toBe('waiting');
    expect(stored?.waiting).toMatchObject({
      reason: 'tool_call_suspended',
      ticketIds: ['ask_1:q1'],
      tickets: [
        { toolCallId: 'q1', toolName: 'ask_human', message: 'color?', resumeMode: 'replay_tool_call' },
      ],
    });
    const scope = stored?.state.__tool_call_scope as Record<
      string,
      { tool_call_state: unknown; suspended_call: unknown }
    >;
    expect(scope.q1?.tool_call_state).toMatchObject({
      status: 'suspended',
      ticket: { suspension: { id: 'ask_1:q1' } },
    });
    expect(scope.q1?.suspended_call).toMatchObject({ pending: { id: 'q1', name: 'ask_human' } });
    expect(store.checkpoints.at(-1)?.trigger).toBe('run_finished');
    const thread = await store.getThread(result.threadId);
    expect(thread?.openRunId).toBe(result.runId);
  });

  it('checkpoints persistent plugin keys and restores them; non-persistent keys stay in memory', async () => {
    const counter = defineStateKey({
      name: 'count',
      scope: 'run',
      persistent: true,
      initial: () => 0,
      schema: z.number(),
    });
    const seen = defineStateKey({ name: 'seen', scope: 'thread', persistent: true, initial: () => 0 });
    const scratch = defineStateKey({ name: 'scratch', scope: 'run', persistent: false, initial: () => 'x' });
    const plugin: Plugin = {
      id: 'counter',
      stateKeys: [counter, seen, scratch],
      hooks: {
        stepStart(context) {
          context.state.update(counter, (value) => value + 1);
          context.state.update(seen, (value) => value + 1);
          context.state.set(scratch, 'y');
        },
      },
    };
    const store = createTestStore();
    const { runtime } = createHarness(
      { tools: [echoTool], plugins: [plugin] },
      {
        store,
        turns: [
          { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] },
          { text: 'a' },
          { text: 'b' },
        ],
      },
    );
    const first = await runtime.runToCompletion({ agentId: 'agent', threadId: 't', input: 'go' });
    const stored = await store.getRun(first.runId);
    expect(stored?.state['run:count']).toBe(2);
    expect(stored?.state['run:scratch']).toBeUndefined();
    expect(await store.getThreadState('t')).toEqual({ 'thread:seen': 2 });
    await runtime.runToCompletion({ agentId: 'agent', threadId: 't', input: 'again' });
    expect(await store.getThreadState('t')).toEqual({ 'thread:seen': 3 });
  });
});
