import type { InferenceStreamPart, ModelExecutor } from '@awaken/contract';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/** Input `stream:N` → N one-character text deltas, then the end. */
export const streamModel: ModelExecutor = {
  modelId: 'bench-stream',
  async *stream(request): AsyncGenerator<InferenceStreamPart> {
    const last = request.messages.at(-1);
    const count = last?.role === 'user' ? Number(last.content.split(':')[1] ?? 0) : 0;
    for (let index = 0; index < count; index += 1) yield { type: 'text_delta', delta: 'x' };
    yield { type: 'finish', finishReason: 'stop', usage };
  },
};
