import { defineTool } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, createHarness } from '../../../test-support/harness';

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: args }] });

describe('tool outputs that are not JSON', () => {
  const returning = (execute: () => unknown) =>
    defineTool({ name: 'odd', description: 'returns an odd value', parameters: z.object({}), execute });

  it('stores a Date as its JSON form and undefined as null, the same in memory and after a reload', async () => {
    for (const [value, expected] of [
      [new Date(0), '1970-01-01T00:00:00.000Z'],
      [undefined, null],
      [{ at: new Date(0), skip: undefined }, { at: '1970-01-01T00:00:00.000Z' }],
    ] as const) {
      const model = createScriptedModel([call('c1', 'odd', {}), { text: 'done' }]);
      const { runtime, store } = createHarness({ tools: [returning(() => value)] }, { model });
      const handle = runtime.run({ agentId: 'agent', input: 'hi' });
      const events = await collect(handle);
      expect(await handle.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      const done = events.find((event) => event.type === 'tool_call_done');
      expect(done).toMatchObject({ content: expected });
      const messages = (await store.readMessages(handle.threadId)).map((record) => record.message);
      expect(messages[2]).toEqual({
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'odd',
        outcome: 'succeeded',
        content: expected,
      });
      expect(model.requests[1]?.messages[2]).toEqual(messages[2]);
    }
  });

  it('turns an output JSON cannot hold (BigInt, a cycle, a function) into a failed result the model sees', async () => {
    const cyclic: Record<string, unknown> = { name: 'response' };
    cyclic.self = cyclic;
    for (const value of [10n, cyclic, () => 1]) {
      const { runtime, store } = createHarness(
        { tools: [returning(() => value)] },
        { turns: [call('c1', 'odd', {}), { text: 'done' }] },
      );
      const handle = runtime.run({ agentId: 'agent', input: 'hi' });
      await collect(handle);
      expect(await handle.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
      const messages = (await store.readMessages(handle.threadId)).map((record) => record.message);
      expect(messages[2]).toMatchObject({ role: 'tool', outcome: 'failed' });
      expect(JSON.stringify(messages[2])).toMatch(/not JSON/);
    }
  });
});
