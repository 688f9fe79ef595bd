import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/** Test helper (not exported): a V3 usage with the common fields set. */
export function v3Usage(
  input: number,
  output: number,
  extra: { cacheRead?: number; reasoning?: number } = {},
): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: input,
      noCache: input - (extra.cacheRead ?? 0),
      cacheRead: extra.cacheRead,
      cacheWrite: undefined,
    },
    outputTokens: { total: output, text: output - (extra.reasoning ?? 0), reasoning: extra.reasoning },
  };
}

/** Test helper: a finish part. */
export function finishPart(
  unified: 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other' = 'stop',
  usage: LanguageModelV3Usage = v3Usage(10, 5),
): LanguageModelV3StreamPart {
  return { type: 'finish', finishReason: { unified, raw: unified }, usage };
}

/** Test helper: a text answer as a V3 stream (start, deltas, end, finish). */
export function textTurn(...deltas: string[]): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    finishPart('stop'),
  ];
}

/** Test helper: one turn calling the given tools, arguments streamed in two deltas each. */
export function toolCallTurn(
  calls: Array<{ id: string; name: string; input: unknown }>,
): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const call of calls) {
    const input = JSON.stringify(call.input);
    const half = Math.floor(input.length / 2);
    parts.push(
      { type: 'tool-input-start', id: call.id, toolName: call.name },
      { type: 'tool-input-delta', id: call.id, delta: input.slice(0, half) },
      { type: 'tool-input-delta', id: call.id, delta: input.slice(half) },
      { type: 'tool-input-end', id: call.id },
      { type: 'tool-call', toolCallId: call.id, toolName: call.name, input },
    );
  }
  parts.push(finishPart('tool-calls'));
  return parts;
}

/** Test helper: a mock model answering each `doStream` call with the next scripted turn. */
export function createStreamModel(
  turns: LanguageModelV3StreamPart[][],
  chunkDelayInMs: number | null = null,
): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-model',
    doStream: turns.map((chunks) => ({
      stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs }),
    })),
  });
}
