import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { collect, createHarness, outline } from '../../../test-support/harness';

describe('runtime.createRun (write-ahead)', () => {
  it('stores the run and its input without executing it; the first resumeRun runs it as a fresh run', async () => {
    const model = createScriptedModel([{ text: 'hello there' }]);
    const { runtime, store } = createHarness({}, { model });
    const record = await runtime.createRun({ agentId: 'agent', runId: 'r1', threadId: 't1', input: 'hi' });
    expect(record).toMatchObject({ runId: 'r1', threadId: 't1', status: 'created', version: 0 });
    expect(await store.readMessages('t1')).toEqual([]);
    expect((await store.getThread('t1'))?.latestRunId).toBe('r1');

    const events = await collect(runtime.resumeRun('r1'));
    expect(events[0]).toMatchObject({ type: 'run_start', resumed: false });
    expect(outline(events).at(-1)).toBe('run_finish');
    expect((await store.readMessages('t1')).map((entry) => entry.message)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', text: 'hello there', toolCalls: [] },
    ]);
    expect(await store.getRun('r1')).toMatchObject({ status: 'done', inputRange: { from: 1, to: 1 } });
    expect(model.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'hi' });
  });

  it('rejects an unknown agent before writing anything', async () => {
    const { runtime, store } = createHarness({});
    await expect(runtime.createRun({ agentId: 'nobody', threadId: 't2', input: 'hi' })).rejects.toMatchObject(
      {
        code: 'invalid_config',
      },
    );
    expect(await store.getThread('t2')).toBeNull();
  });
});
