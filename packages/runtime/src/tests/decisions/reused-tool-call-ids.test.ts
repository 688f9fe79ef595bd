import type { Plugin } from '@awaken/contract';
import { countExecutions, createScriptedModel, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createTestStore } from '../../../test-support/recording-store';
import { collect, createHarness, historyIsValid } from '../../../test-support/harness';
import { createAgentRuntime } from '../../create-agent-runtime';

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: args }] });

describe('tool call ids from the model', () => {
  it('runs a call whose id was already used by an earlier step (providers that number ids per turn)', async () => {
    const echo = countExecutions(echoTool);
    const model = createScriptedModel([
      call('call_0', 'echo', { text: 'a' }),
      call('call_0', 'echo', { text: 'b' }),
      { text: 'done' },
    ]);
    const { runtime, store } = createHarness({ tools: [echo.tool] }, { model });
    const handle = runtime.run({ agentId: 'agent', input: 'hi' });
    await collect(handle);
    expect(await handle.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    const messages = (await store.readMessages(handle.threadId)).map((record) => record.message);
    expect(echo.count()).toBe(2);
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(messages[4]).toMatchObject({ toolCallId: 'call_0', content: { echoed: 'b' } });
    expect(historyIsValid(messages)).toBe(true);
    // the model was never asked to answer with an unanswered call in its history
    for (const request of model.requests) expect(historyIsValid(request.messages)).toBe(true);
  });

  it('runs a reused id in a fresh process after the earlier call of that id was checkpointed', async () => {
    const store = createTestStore();
    const echo = countExecutions(echoTool);
    const approval: Plugin = {
      id: 'approval',
      hooks: {
        toolGate: (context) =>
          context.resume || (context.call.arguments as { text: string }).text !== 'b'
            ? undefined
            : ({
                type: 'suspend',
                suspension: { id: 'ok', action: 'approve', message: 'ok?', parameters: {} },
              } as const),
      },
    };
    const agents = [{ id: 'agent', tools: [echo.tool], plugins: [approval] }];
    const model = createScriptedModel([
      call('call_0', 'echo', { text: 'a' }),
      call('call_0', 'echo', { text: 'b' }),
      { text: 'done' },
    ]);
    const first = await createAgentRuntime({ agents, stores: { threadRuns: store }, model }).runToCompletion({
      agentId: 'agent',
      input: 'hi',
    });
    expect(first.status).toBe('waiting');
    const resumed = createAgentRuntime({ agents, stores: { threadRuns: store }, model }).resumeRun(
      first.runId,
      {
        decisions: [{ toolCallId: 'call_0', decisionId: 'd1', action: 'resume', result: true, updatedAt: 1 }],
      },
    );
    expect(await resumed.receipts).toMatchObject([{ status: 'accepted' }]);
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'done' });
    expect(echo.count()).toBe(2);
    const messages = (await store.readMessages(first.threadId)).map((record) => record.message);
    expect(historyIsValid(messages)).toBe(true);
  });

  it('executes a call id the model repeated within one parallel turn once, like the sequential executor', async () => {
    for (const toolExecution of ['sequential', 'parallel'] as const) {
      const echo = countExecutions(echoTool);
      const { runtime, store } = createHarness(
        { tools: [echo.tool], toolExecution },
        {
          turns: [
            {
              toolCalls: [
                { id: 'x', name: 'echo', arguments: { text: 'a' } },
                { id: 'x', name: 'echo', arguments: { text: 'a' } },
              ],
            },
            { text: 'done' },
          ],
        },
      );
      const handle = runtime.run({ agentId: 'agent', input: 'hi' });
      const events = await collect(handle);
      expect(echo.count()).toBe(1);
      expect(events.filter((event) => event.type === 'tool_call_done')).toHaveLength(1);
      const messages = (await store.readMessages(handle.threadId)).map((record) => record.message);
      expect(messages.filter((message) => message.role === 'tool')).toHaveLength(1);
    }
  });
});
