import { type Plugin, defineStateKey } from '@awaken/contract';
import { echoTool } from '@awaken/testing';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../../test-support/harness';

const cyclic = (): unknown => {
  const value: Record<string, unknown> = { label: 'loop' };
  value.self = value;
  return value;
};

/**
 * Persistent plugin state is a plugin's own value: on the stores' trusted path nothing checks it
 * after the runtime, so the runtime must, as the store did (`validation_failed` naming the member,
 * nothing of it stored) — never NaN stored as null, a BigInt kept, or a stack overflow.
 */
describe('persistent plugin state JSON cannot hold, on stores with a trusted view', () => {
  it.each([
    ['NaN', () => Number.NaN],
    ['a BigInt', () => 10n],
    ['a cycle', cyclic],
  ])('%s is refused validation_failed naming the key; the stored run never holds it', async (_, bad) => {
    const total = defineStateKey<unknown>({
      name: 'total',
      scope: 'run',
      persistent: true,
      initial: () => 0,
    });
    const plugin: Plugin = {
      id: 'bad-state',
      stateKeys: [total],
      hooks: { afterToolExecute: (context) => context.state.set(total, { amount: bad() }) },
    };
    const store = createMemoryThreadRunStore();
    const { runtime } = createHarness(
      { tools: [echoTool], plugins: [plugin] },
      {
        store,
        eventLog: createMemoryRunEventLog(),
        turns: [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] }, { text: 'ok' }],
      },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    await expect(handle.result).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('amount'),
    });
    const stored = await store.getRun(handle.runId);
    expect(JSON.stringify(stored?.state ?? {})).not.toContain('amount');
  });
});
