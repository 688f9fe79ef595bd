import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { APICallError } from '@ai-sdk/provider';
import { AwakenError, type InferenceRequest, type InferenceStreamPart } from '@awaken/contract';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { createAiSdkModelExecutor } from './create-ai-sdk-model-executor';
import {
  createStreamModel,
  finishPart,
  textTurn,
  toolCallTurn,
  v3Usage,
} from '../test-support/scripted-stream-model';

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

async function failureOf(stream: AsyncIterable<InferenceStreamPart>): Promise<unknown> {
  try {
    await collect(stream);
  } catch (error) {
    return error;
  }
  throw new Error('expected the stream to fail');
}

describe('createAiSdkModelExecutor', () => {
  it('streams text deltas and ends with one finish part', async () => {
    const model = createStreamModel([textTurn('Hel', 'lo', '')]);
    const parts = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(parts).toEqual([
      { type: 'text_delta', delta: 'Hel' },
      { type: 'text_delta', delta: 'lo' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
        model: 'mock-model',
      },
    ]);
  });

  it('streams reasoning before the answer', async () => {
    const model = createStreamModel([
      [
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'think' },
        { type: 'reasoning-delta', id: 'r1', delta: 'ing' },
        { type: 'reasoning-end', id: 'r1' },
        ...textTurn('done'),
      ],
    ]);
    const parts = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(parts.slice(0, 3)).toEqual([
      { type: 'reasoning_delta', delta: 'think' },
      { type: 'reasoning_delta', delta: 'ing' },
      { type: 'text_delta', delta: 'done' },
    ]);
  });

  it('streams several tool calls of one turn with their argument deltas', async () => {
    const model = createStreamModel([
      toolCallTurn([
        { id: 'c1', name: 'weather', input: { city: 'Paris' } },
        { id: 'c2', name: 'time', input: { zone: 'UTC' } },
      ]),
    ]);
    const parts = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(parts.slice(0, -1)).toEqual([
      { type: 'tool_call_start', toolCallId: 'c1', toolName: 'weather' },
      { type: 'tool_call_args_delta', toolCallId: 'c1', delta: '{"city":' },
      { type: 'tool_call_args_delta', toolCallId: 'c1', delta: '"Paris"}' },
      { type: 'tool_call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Paris"}' },
      { type: 'tool_call_start', toolCallId: 'c2', toolName: 'time' },
      { type: 'tool_call_args_delta', toolCallId: 'c2', delta: '{"zone"' },
      { type: 'tool_call_args_delta', toolCallId: 'c2', delta: ':"UTC"}' },
      { type: 'tool_call', toolCallId: 'c2', toolName: 'time', input: '{"zone":"UTC"}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
  });

  it('reports a tool call sent in one piece with a start, one delta and an empty input as {}', async () => {
    const model = createStreamModel([
      [{ type: 'tool-call', toolCallId: 'c1', toolName: 'now', input: '' }, finishPart('tool-calls')],
    ]);
    const parts = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(parts.slice(0, -1)).toEqual([
      { type: 'tool_call_start', toolCallId: 'c1', toolName: 'now' },
      { type: 'tool_call_args_delta', toolCallId: 'c1', delta: '{}' },
      { type: 'tool_call', toolCallId: 'c1', toolName: 'now', input: '{}' },
    ]);
  });

  it('does not report tool calls the provider executes itself', async () => {
    const model = createStreamModel([
      [
        { type: 'tool-input-start', id: 'ws', toolName: 'web_search', providerExecuted: true },
        { type: 'tool-input-delta', id: 'ws', delta: '{}' },
        { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: '{}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', result: { hits: 1 } },
        ...textTurn('found it'),
      ],
    ]);
    const parts = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(parts.map((part) => part.type)).toEqual(['text_delta', 'finish']);
  });

  it('maps nested V3 usage, the finish reason, the response model and provider metadata', async () => {
    const model = createStreamModel([
      [
        { type: 'response-metadata', modelId: 'mock-model-2025-01-01' },
        {
          type: 'finish',
          finishReason: { unified: 'length', raw: 'max_tokens' },
          usage: v3Usage(1200, 300, { cacheRead: 1000, reasoning: 120 }),
          providerMetadata: { anthropic: { cacheCreationInputTokens: 0 } },
        },
      ],
    ]);
    const parts = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(parts).toEqual([
      {
        type: 'finish',
        finishReason: 'length',
        usage: {
          inputTokens: 1200,
          outputTokens: 300,
          totalTokens: 1500,
          cachedInputTokens: 1000,
          reasoningTokens: 120,
        },
        model: 'mock-model-2025-01-01',
        providerMetadata: { anthropic: { cacheCreationInputTokens: 0 } },
      },
    ]);
  });

  it('rebuilds missing usage totals from their parts and maps unknown finish reasons', async () => {
    const model = createStreamModel([
      [
        {
          type: 'finish',
          finishReason: { unified: 'surprise' as 'other', raw: undefined },
          usage: {
            inputTokens: { total: undefined, noCache: 7, cacheRead: 3, cacheWrite: undefined },
            outputTokens: { total: undefined, text: undefined, reasoning: undefined },
          },
        },
      ],
    ]);
    const [finish] = await collect(createAiSdkModelExecutor(model).stream(request()));
    expect(finish).toMatchObject({
      finishReason: 'unknown',
      usage: { inputTokens: 10, outputTokens: 0, totalTokens: 10, cachedInputTokens: 3 },
    });
  });

  it('passes tools, tool choice, settings, provider options and the signal to doStream', async () => {
    const model = createStreamModel([textTurn('ok')]);
    const controller = new AbortController();
    const executor = createAiSdkModelExecutor(model, {
      defaults: { temperature: 1, topK: 40, providerOptions: { openai: { store: false, user: 'a' } } },
      headers: { 'x-trace': '1' },
    });
    await collect(
      executor.stream(
        request({
          system: 'Be brief.',
          tools: [
            { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
          ],
          toolChoice: { type: 'tool', toolName: 'weather' },
          options: {
            temperature: 0.2,
            maxOutputTokens: 100,
            topP: 0.9,
            stopSequences: ['END'],
            seed: 7,
            providerOptions: { openai: { user: 'b' } },
          },
          signal: controller.signal,
        }),
      ),
    );
    const { prompt, abortSignal, ...callOptions } = model.doStreamCalls[0] ?? { prompt: [] };
    expect(abortSignal).toBe(controller.signal);
    expect(prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(callOptions).toEqual({
      temperature: 0.2,
      maxOutputTokens: 100,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
      seed: 7,
      providerOptions: { openai: { store: false, user: 'b' } },
      headers: { 'x-trace': '1' },
      tools: [
        {
          type: 'function',
          name: 'weather',
          description: 'Weather',
          inputSchema: { type: 'object', properties: {} },
        },
      ],
      toolChoice: { type: 'tool', toolName: 'weather' },
    });
  });

  it('sends no tools and no tool choice when the request has no tools', async () => {
    const model = createStreamModel([textTurn('ok')]);
    await collect(createAiSdkModelExecutor(model).stream(request({ toolChoice: 'required' })));
    expect(model.doStreamCalls[0]?.tools).toBeUndefined();
    expect(model.doStreamCalls[0]?.toolChoice).toBeUndefined();
  });

  it('stops mid-stream and throws the abort reason when the signal aborts', async () => {
    const model = createStreamModel([textTurn('a', 'b', 'c', 'd', 'e', 'f')], 20);
    const controller = new AbortController();
    const received: InferenceStreamPart[] = [];
    const reason = new Error('run cancelled');
    const failure = (async () => {
      try {
        for await (const part of createAiSdkModelExecutor(model).stream(
          request({ signal: controller.signal }),
        )) {
          received.push(part);
          if (received.length === 2) controller.abort(reason);
        }
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(await failure).toBe(reason);
    expect(received).toHaveLength(2);
  });

  it('stops waiting for a provider that ignores the signal', async () => {
    const model = new MockLanguageModelV3({ doStream: () => new Promise(() => {}) });
    const controller = new AbortController();
    const pending = failureOf(createAiSdkModelExecutor(model).stream(request({ signal: controller.signal })));
    setTimeout(() => controller.abort(new Error('stop')), 10);
    expect(await pending).toEqual(new Error('stop'));
  });

  it('cancels the stream of a provider that ignored the signal and answered after the abort', async () => {
    let answer: ((value: { stream: ReadableStream<LanguageModelV3StreamPart> }) => void) | undefined;
    const model = new MockLanguageModelV3({
      doStream: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    let cancelled: unknown;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      cancel(reason) {
        cancelled = reason ?? 'cancelled';
      },
    });
    const controller = new AbortController();
    const pending = failureOf(createAiSdkModelExecutor(model).stream(request({ signal: controller.signal })));
    await vi.waitFor(() => expect(answer).toBeDefined());
    controller.abort(new Error('stop'));
    expect(await pending).toEqual(new Error('stop'));
    answer?.({ stream });
    await vi.waitFor(() => expect(cancelled).toBeDefined());
  });

  it('throws a classified error for an error stream part', async () => {
    const model = createStreamModel([
      [
        { type: 'text-delta', id: 't', delta: 'par' },
        {
          type: 'error',
          error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
        finishPart('error'),
      ],
    ]);
    const error = await failureOf(createAiSdkModelExecutor(model).stream(request()));
    expect(AwakenError.hasCode(error, 'model_transient')).toBe(true);
    expect(error).toMatchObject({
      message: 'Overloaded',
      retryable: true,
      details: { reason: 'overloaded' },
    });
  });

  it('throws a classified error when doStream rejects', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw new APICallError({
          message: 'Invalid API key',
          url: 'https://api.example.com',
          requestBodyValues: {},
          statusCode: 401,
        });
      },
    });
    const error = await failureOf(createAiSdkModelExecutor(model).stream(request()));
    expect(error).toMatchObject({ code: 'model_permanent', message: 'Invalid API key', retryable: false });
  });

  it('throws model_transient when the stream ends without a finish part', async () => {
    const model = createStreamModel([[{ type: 'text-delta', id: 't', delta: 'cut' }]]);
    const error = await failureOf(createAiSdkModelExecutor(model).stream(request()));
    expect(error).toMatchObject({ code: 'model_transient', details: { reason: 'incomplete_stream' } });
  });

  it('throws model_transient when the provider stream itself errors', async () => {
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'text-delta', id: 't', delta: 'x' });
        controller.error(Object.assign(new TypeError('terminated'), { cause: { code: 'ECONNRESET' } }));
      },
    });
    const model = new MockLanguageModelV3({ doStream: { stream } });
    const error = await failureOf(createAiSdkModelExecutor(model).stream(request()));
    expect(error).toMatchObject({ code: 'model_transient', details: { reason: 'network' } });
  });

  it('labels itself with the provider and model id unless told otherwise', () => {
    const model = createStreamModel([]);
    expect(createAiSdkModelExecutor(model).modelId).toBe('mock-provider:mock-model');
    expect(createAiSdkModelExecutor(model, { modelId: 'fast' }).modelId).toBe('fast');
  });

  it('rejects a model that is neither a V3 nor a V4 language model', () => {
    const legacy = { specificationVersion: 'v2' } as unknown as MockLanguageModelV3;
    expect(() => createAiSdkModelExecutor(legacy)).toThrow(/specificationVersion 'v3' or 'v4'/);
  });
});
