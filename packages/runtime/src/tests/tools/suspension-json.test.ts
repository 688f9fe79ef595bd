import { defineTool, toolPending } from '@awaken/contract';
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
    const { runtime, model } = createHarness(
      { tools: [ask] },
      {
        store,
        eventLog: createMemoryRunEventLog(),
        turns: [{ toolCalls: [{ id: 'a', name: 'ask', arguments: {} }] }, { text: 'could not ask' }],
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({ status: 'done', response: 'could not ask' });
    const tool = model.requests[1]?.messages.find((message) => message.role === 'tool');
    expect(tool).toMatchObject({ outcome: 'failed' });
    expect(JSON.stringify(tool)).toContain('amount');
    const stored = await store.getRun(result.runId);
    expect(stored?.waiting).toBeUndefined();
  });
});
