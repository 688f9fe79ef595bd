import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/**
 * The "weather in Paris" chat turn both servers of the chat-turn benchmark run, as an ai@6
 * `LanguageModelV3` that keeps nothing between calls: a prompt ending with a user message → a short
 * text and one `get_weather` call; a prompt ending with the tool's result → the answer in a few
 * text deltas. The bare route drives it through `streamText`, Awaken through
 * `@awaken/provider-ai-sdk`, so both stream the same chunks.
 */
const usage: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function parts(options: LanguageModelV3CallOptions): LanguageModelV3StreamPart[] {
  const last = options.prompt.at(-1);
  const out: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (last?.role === 'tool') {
    out.push({ type: 'text-start', id: 'a' });
    for (const delta of ['It is ', '18°C ', 'and ', 'sunny ', 'in ', 'Paris.'])
      out.push({ type: 'text-delta', id: 'a', delta });
    out.push(
      { type: 'text-end', id: 'a' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    );
    return out;
  }
  const input = '{"city":"Paris"}';
  out.push(
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'Let me check.' },
    { type: 'text-end', id: 't' },
    { type: 'tool-input-start', id: 'call_1', toolName: 'get_weather' },
    { type: 'tool-input-delta', id: 'call_1', delta: input },
    { type: 'tool-input-end', id: 'call_1' },
    { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
  );
  return out;
}

export const weatherModel: LanguageModelV3 = {
  specificationVersion: 'v3',
  provider: 'bench',
  modelId: 'weather',
  supportedUrls: {},
  async doGenerate() {
    throw new Error('the chat-turn benchmark streams');
  },
  async doStream(options) {
    const chunks = parts(options);
    return {
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
    };
  },
};

export const WEATHER = { temperature: 18, condition: 'sunny' };
