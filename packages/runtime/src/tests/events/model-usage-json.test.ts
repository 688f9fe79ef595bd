import { runRecordSchema } from '@awaken/contract';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../../test-support/harness';

/**
 * A model's reported usage is the adapter's value, summed into the run record: on the stores'
 * trusted path nothing checks it after the runtime. A usage the record schema refuses (NaN, a
 * negative or fractional count) must never reach the store — a record that fails its own schema
 * on read back is a run nobody can load.
 */
describe('model usage the run record cannot hold, on stores with a trusted view', () => {
  it.each([
    ['NaN', Number.NaN],
    ['a negative count', -3],
    ['a fraction', 1.5],
  ])('%s is refused: every stored record still passes the run record schema', async (_, bad) => {
    const store = createMemoryThreadRunStore();
    const { runtime } = createHarness(
      {},
      {
        store,
        eventLog: createMemoryRunEventLog(),
        turns: [{ text: 'hello', usage: { inputTokens: bad, outputTokens: 5, totalTokens: 5 } }],
      },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    await handle.result.catch(() => undefined);
    const stored = await store.getRun(handle.runId);
    expect(runRecordSchema.safeParse(stored).success).toBe(true);
    // the run ends with the adapter's mistake named, not `natural_end` with a made-up count
    expect(stored).toMatchObject({
      status: 'done',
      termination: { type: 'error', code: 'validation_failed' },
    });
    expect(JSON.stringify(stored?.termination)).toContain('inputTokens');
  });
});
