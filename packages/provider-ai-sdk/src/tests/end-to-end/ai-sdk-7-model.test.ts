import type { InferenceRequest, InferenceStreamPart } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAiSdkModelExecutor } from '../../create-ai-sdk-model-executor';
import {
  createV4StreamModel,
  v4TextTurn,
  v4ToolCallTurn,
} from '../../../test-support/scripted-stream-model-v4';

function request(overrides: Partial<InferenceRequest> = {}): InferenceRequest {
  return {
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    options: {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function collect(stream: AsyncIterable<InferenceStreamPart>): Promise<InferenceStreamPart[]> {
  const parts: InferenceStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('an AI SDK 7 provider (LanguageModelV4)', () => {
  it('is accepted and streams text, ignoring ping parts', async () => {
    const model = createV4StreamModel([v4TextTurn('Hello')]);
    const executor = createAiSdkModelExecutor(model);
    expect(executor.modelId).toBe('mock-provider-v4:mock-model-v4');
    expect(await collect(executor.stream(request()))).toEqual([
      { type: 'text_delta', delta: 'Hello' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
        model: 'mock-model-v4',
      },
    ]);
  });

  it("maps V4's 'interrupted' finish reason to 'other'", async () => {
    const model = createV4StreamModel([v4TextTurn('Hel', 'interrupted')]);
    const parts = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'other' });
  });

  it('passes tools and the prompt in the V4 call options', async () => {
    const model = createV4StreamModel([v4TextTurn('ok')]);
    const tools = [{ name: 'echo', description: 'Echoes', parameters: { type: 'object' } }];
    await collect(createAiSdkModelExecutor(model).stream(request({ tools, toolChoice: 'required' })));
    expect(model.doStreamCalls[0]).toMatchObject({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ type: 'function', name: 'echo', description: 'Echoes', inputSchema: { type: 'object' } }],
      toolChoice: { type: 'required' },
    });
  });

  it('drives a runtime through a tool round and sends the tool results back', async () => {
    const model = createV4StreamModel([
      v4ToolCallTurn([{ id: 'call_1', name: 'echo', input: { text: 'one' } }]),
      v4TextTurn('Echoed.'),
    ]);
    const runtime = createAgentRuntime({
      agents: [{ id: 'assistant', tools: [echoTool] }],
      stores: { threadRuns: createMemoryThreadRunStore() },
      model: createAiSdkModelExecutor(model),
    });
    const result = await runtime.runToCompletion({ agentId: 'assistant', input: 'Echo one.' });
    expect(result).toMatchObject({ status: 'done', response: 'Echoed.', steps: 2 });
    expect(model.doStreamCalls[1]?.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ toolCallId: 'call_1', output: { type: 'json', value: { echoed: 'one' } } }],
    });
  });

  it('still refuses a model of another specification version, naming the versions it takes', () => {
    const legacy = { specificationVersion: 'v2', provider: 'old', modelId: 'm' } as never;
    expect(() => createAiSdkModelExecutor(legacy)).toThrow(/'v3' or 'v4'.*got 'v2'/);
  });
});
