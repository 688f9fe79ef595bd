import { createScriptedModel, createControllableTool, pendingTool, slowTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { collect, createHarness, historyIsValid, until } from '../../../test-support/harness';

describe('cancellation', () => {
  it('cancels a run before it starts: created goes straight to done, no model call', async () => {
    const model = createScriptedModel([{ text: 'never' }]);
    const { runtime, store } = createHarness({}, { model });
    const handle = runtime.run({ agentId: 'agent', input: 'go', signal: AbortSignal.abort('user left') });
    const events = await collect(handle);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'done', termination: { type: 'cancelled', reason: 'user left' } });
    expect(events.map((event) => event.type)).toEqual(['run_start', 'run_finish']);
    expect(model.callCount).toBe(0);
    expect((await store.getRun(handle.runId))?.status).toBe('done');
  });

  it('cancels during streaming through the model call signal', async () => {
    const model = createScriptedModel([{ text: 'a long streamed answer', delayMs: 20, chunkSize: 1 }]);
    const { runtime } = createHarness({}, { model });
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    const seen: string[] = [];
    for await (const event of handle) {
      seen.push(event.type);
      if (event.type === 'text_delta') handle.cancel('stop it');
    }
    const result = await handle.result;
    expect(result.termination).toEqual({ type: 'cancelled', reason: 'stop it' });
    expect(seen.filter((type) => type === 'text_delta').length).toBeLessThan(5);
  });

  it('cancels during a slow tool: the tool is aborted and its call cancelled', async () => {
    const { runtime, store } = createHarness(
      { tools: [slowTool] },
      { turns: [{ toolCalls: [{ id: 's', name: 'slow', arguments: { ms: 10_000 } }] }] },
    );
    const controller = new AbortController();
    const handle = runtime.run({ agentId: 'agent', input: 'go', signal: controller.signal });
    for await (const event of handle)
      if (event.type === 'tool_call_ready') setTimeout(() => controller.abort('enough'), 10);
    const result = await handle.result;
    expect(result.termination).toEqual({ type: 'cancelled', reason: 'enough' });
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages.at(-1)).toMatchObject({ toolCallId: 's', outcome: 'cancelled' });
    expect(historyIsValid(messages)).toBe(true);
  });

  it('cancels running and suspended calls of a parallel round', async () => {
    const controlled = createControllableTool('work');
    const { runtime, store } = createHarness(
      { tools: [controlled.tool, pendingTool], toolExecution: 'parallel' },
      {
        turns: [
          {
            toolCalls: [
              { id: 'q', name: 'ask_human', arguments: { question: '?' } },
              { id: 'w', name: 'work', arguments: {} },
            ],
          },
        ],
      },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    await controlled.started('w');
    handle.cancel();
    const result = await handle.result;
    expect(result.termination.type).toBe('cancelled');
    const tools = (await store.readMessages(result.threadId)).flatMap((record) =>
      record.message.role === 'tool' ? [record.message.outcome] : [],
    );
    expect(tools).toEqual(['cancelled', 'cancelled']);
  });

  it('cancels a hot waiting run: suspended calls become cancelled', async () => {
    const { runtime, store } = createHarness(
      { tools: [pendingTool] },
      { turns: [{ toolCalls: [{ id: 'q', name: 'ask_human', arguments: { question: '?' } }] }] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    const events: string[] = [];
    const reading = (async () => {
      for await (const event of handle) events.push(event.type);
    })();
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    handle.cancel('nobody answered');
    const result = await handle.result;
    await reading;
    expect(result).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'nobody answered' },
    });
    expect(events.filter((type) => type === 'run_finish')).toHaveLength(2);
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages.at(-1)).toMatchObject({ toolCallId: 'q', outcome: 'cancelled' });
  });

  it('cancels a cold waiting run with cancelRun', async () => {
    const { runtime, store } = createHarness(
      { tools: [pendingTool] },
      { turns: [{ toolCalls: [{ id: 'q', name: 'ask_human', arguments: { question: '?' } }] }] },
    );
    const waiting = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(waiting.status).toBe('waiting');
    const result = await runtime.cancelRun(waiting.runId, 'timeout policy');
    expect(result).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'timeout policy' },
    });
    const stored = await store.getRun(waiting.runId);
    expect(stored?.status).toBe('done');
    expect((await store.getThread(waiting.threadId))?.openRunId).toBeUndefined();
  });

  it('cancels a live waiting run with cancelRun and returns once its activation ended', async () => {
    const { runtime, store } = createHarness(
      { tools: [pendingTool] },
      { turns: [{ toolCalls: [{ id: 'q', name: 'ask_human', arguments: { question: '?' } }] }] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
    const result = await runtime.cancelRun(handle.runId, 'user closed the tab');
    expect(result).toMatchObject({
      status: 'done',
      termination: { type: 'cancelled', reason: 'user closed the tab' },
    });
    expect(await handle.result).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    const history = await store.readMessages(handle.threadId);
    expect(history.at(-1)?.message).toMatchObject({ role: 'tool', toolCallId: 'q', outcome: 'cancelled' });
  });
});
