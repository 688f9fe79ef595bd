import type { Plugin } from '@awaken/contract';
import { createControllableTool, createDeferred, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { collect, createHarness, historyIsValid } from '../../../test-support/harness';

describe('a plugin hook that throws while other parallel calls still run', () => {
  it('ends the run with error only after the running calls settled, never marking a running body cancelled', async () => {
    const slow = createControllableTool('slow');
    const hookFailed = createDeferred<void>();
    const failing: Plugin = {
      id: 'failing',
      hooks: {
        afterToolExecute(context) {
          if (context.call.name !== 'echo') return;
          hookFailed.resolve();
          throw new Error('audit log unavailable');
        },
      },
    };
    const { runtime, store } = createHarness(
      { tools: [slow.tool, echoTool], plugins: [failing], toolExecution: 'parallel' },
      {
        turns: [
          {
            toolCalls: [
              { id: 's', name: 'slow', arguments: {} },
              { id: 'e', name: 'echo', arguments: { text: 'x' } },
            ],
          },
          { text: 'never' },
        ],
      },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    const reading = collect(handle);
    await slow.started('s');
    let settled = false;
    void handle.result.finally(() => {
      settled = true;
    });
    await hookFailed.promise;
    // everything the runtime does without the slow call is in-memory promise work; once a macrotask
    // turn has passed it is done. Before the fix the run had already ended here and recorded `s`
    // cancelled while its body ran on.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    slow.release('s', { sent: true });
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'done', termination: { type: 'error' } });
    expect(JSON.stringify(result.termination)).toMatch(/audit log unavailable/);
    const events = await reading;
    const done = events.filter((event) => event.type === 'tool_call_done');
    expect(done.find((event) => event.toolCallId === 's')).toMatchObject({
      status: 'succeeded',
      content: { sent: true },
    });
    expect(slow.executions('s')).toBe(1);
    const messages = (await store.readMessages(handle.threadId)).map((record) => record.message);
    expect(historyIsValid(messages)).toBe(true);
    expect(messages.find((message) => message.role === 'tool' && message.toolCallId === 's')).toMatchObject({
      outcome: 'succeeded',
    });
  });
});
