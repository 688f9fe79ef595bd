import { createAgentRuntime } from '@awaken/runtime';
// The testing kit's store: @awaken/store-memory's checkpoint currently rejects running -> running.
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { echoTool, pendingTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAiSdkModelExecutor } from '../../create-ai-sdk-model-executor';
import { createStreamModel, textTurn, toolCallTurn } from '../../../test-support/scripted-stream-model';

describe('@awaken/runtime driven by an AI SDK model through this executor', () => {
  it('runs a tool round and answers, sending the provider a well-formed follow-up prompt', async () => {
    const model = createStreamModel([
      toolCallTurn([
        { id: 'call_1', name: 'echo', input: { text: 'one' } },
        { id: 'call_2', name: 'echo', input: { text: 'two' } },
      ]),
      textTurn('Both ', 'echoed.'),
    ]);
    const runtime = createAgentRuntime({
      agents: [{ id: 'assistant', systemPrompt: 'Use tools.', tools: [echoTool] }],
      stores: { threadRuns: createMemoryThreadRunStore() },
      model: createAiSdkModelExecutor(model),
    });
    const handle = runtime.run({ agentId: 'assistant', input: 'Echo one and two.' });
    const types: string[] = [];
    for await (const event of handle.events) types.push(event.type);
    const result = await handle.result;

    expect(result).toMatchObject({ status: 'done', response: 'Both echoed.', steps: 2 });
    expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
    expect(types).toContain('tool_call_args_delta');
    expect(types.filter((type) => type === 'tool_call_done')).toHaveLength(2);
    expect(model.doStreamCalls).toHaveLength(2);
    const [system, user, assistant, tool] = model.doStreamCalls[1]?.prompt ?? [];
    expect(system).toEqual({ role: 'system', content: 'Use tools.' });
    expect(user).toEqual({ role: 'user', content: [{ type: 'text', text: 'Echo one and two.' }] });
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'echo', input: { text: 'one' } },
        { type: 'tool-call', toolCallId: 'call_2', toolName: 'echo', input: { text: 'two' } },
      ],
    });
    expect(tool).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'call_1', output: { type: 'json', value: { echoed: 'one' } } },
        { toolCallId: 'call_2', output: { type: 'json', value: { echoed: 'two' } } },
      ],
    });
  });

  it('resumes after a human cancels a suspended call and tells the model the call did not run', async () => {
    const model = createStreamModel([
      toolCallTurn([
        { id: 'call_ask', name: 'ask_human', input: { question: 'Delete the file?' } },
        { id: 'call_echo', name: 'echo', input: { text: 'hi' } },
      ]),
      textTurn('Understood, I left it.'),
    ]);
    const runtime = createAgentRuntime({
      agents: [{ id: 'assistant', tools: [pendingTool, echoTool] }],
      stores: { threadRuns: createMemoryThreadRunStore() },
      model: createAiSdkModelExecutor(model),
    });
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'Clean up.' });
    expect(first.status).toBe('waiting');

    const resumed = runtime.resumeRun(first.runId, {
      decisions: [
        {
          toolCallId: 'call_ask',
          decisionId: 'd1',
          action: 'cancel',
          result: null,
          reason: 'Keep that file.',
          updatedAt: Date.now(),
        },
      ],
    });
    const result = await resumed.result;

    expect(result).toMatchObject({ status: 'done', response: 'Understood, I left it.' });
    expect(model.doStreamCalls).toHaveLength(2);
    const prompt = model.doStreamCalls[1]?.prompt ?? [];
    expect(prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(prompt[2]).toMatchObject({
      role: 'tool',
      content: [
        {
          toolCallId: 'call_ask',
          output: {
            type: 'execution-denied',
            reason: 'The tool call was cancelled and did not run. Reason: Keep that file.',
          },
        },
        { toolCallId: 'call_echo', output: { type: 'json', value: { echoed: 'hi' } } },
      ],
    });
  });
});
