import { type Plugin, defineTool, toolPending, toolSuccess } from '@awaken/contract';
import { echoTool } from '@awaken/testing';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness } from '../../../test-support/harness';

const cyclic = (): unknown => {
  const value: Record<string, unknown> = { label: 'loop' };
  value.self = value;
  return value;
};

/**
 * A tool's suspension is the tool's own value, like its output: on the stores' trusted path nothing
 * checks it after the runtime, so the runtime must. What JSON cannot hold faithfully fails the call
 * naming the member, as a tool output does — never a ticket stored with the value silently changed
 * (NaN → null), a BigInt kept in a store that promises JSON, or a stack overflow.
 */
describe('a suspension JSON cannot hold, on stores with a trusted view', () => {
  it.each([
    ['NaN', () => Number.NaN],
    ['a BigInt', () => 10n],
    ['a cycle', cyclic],
  ])('%s in its parameters fails the call naming the member; nothing of it is stored', async (_, bad) => {
    const ask = defineTool({
      name: 'ask',
      description: 'asks for an amount',
      parameters: z.object({}),
      execute: () =>
        toolPending({ id: 'q1', action: 'input', message: 'amount?', parameters: { amount: bad() } }),
    });
    const store = createMemoryThreadRunStore();
    const { runtime } = createHarness(
      { tools: [ask] },
      {
        store,
        eventLog: createMemoryRunEventLog(),
        turns: [{ toolCalls: [{ id: 'a', name: 'ask', arguments: {} }] }, { text: 'could not ask' }],
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({ status: 'done', response: 'could not ask' });
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages[2]).toMatchObject({ toolCallId: 'a', outcome: 'failed' });
    expect(JSON.stringify(messages[2])).toContain('amount');
    const stored = await store.getRun(result.runId);
    expect(stored?.waiting).toBeUndefined();
  });
});

describe("a gate's set_result JSON cannot hold, on stores with a trusted view", () => {
  it.each([
    ['NaN', () => Number.NaN],
    ['a BigInt', () => 10n],
    ['a cycle', cyclic],
  ])('%s in its output fails the call naming the member, as a tool output does', async (_, bad) => {
    const plugin: Plugin = {
      id: 'gate',
      hooks: { toolGate: () => ({ type: 'set_result', result: toolSuccess({ cached: bad() }) }) },
    };
    const store = createMemoryThreadRunStore();
    const { runtime } = createHarness(
      { tools: [echoTool], plugins: [plugin] },
      {
        store,
        eventLog: createMemoryRunEventLog(),
        turns: [{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: '1' } }] }, { text: 'ok' }],
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.status).toBe('done');
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages[2]).toMatchObject({ toolCallId: 'a', outcome: 'failed' });
    expect(JSON.stringify(messages[2])).toContain('cached');
  });
});
