import type { LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider-v4';
import { simulateReadableStream } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';

/** Test helper (not exported): a V4 usage. */
export function v4Usage(input: number, output: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

type Unified = 'stop' | 'tool-calls' | 'interrupted';

function finish(unified: Unified): LanguageModelV4StreamPart {
  return { type: 'finish', finishReason: { unified, raw: unified }, usage: v4Usage(10, 5) };
}

/** Test helper: a text answer as an AI SDK 7 (V4) stream, with the `ping` parts V4 adds. */
export function v4TextTurn(text: string, unified: Unified = 'stop'): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'ping' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: text },
    { type: 'text-end', id: 't1' },
    finish(unified),
  ];
}

/** Test helper: one V4 turn calling the given tools. */
export function v4ToolCallTurn(
  calls: Array<{ id: string; name: string; input: unknown }>,
): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const call of calls) {
    const input = JSON.stringify(call.input);
    parts.push(
      { type: 'tool-input-start', id: call.id, toolName: call.name, title: call.name },
      { type: 'tool-input-delta', id: call.id, delta: input },
      { type: 'tool-input-end', id: call.id },
      { type: 'tool-call', toolCallId: call.id, toolName: call.name, input },
    );
  }
  parts.push(finish('tool-calls'));
  return parts;
}

/** Test helper: an AI SDK 7 mock model answering each `doStream` call with the next scripted turn. */
export function createV4StreamModel(turns: LanguageModelV4StreamPart[][]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'mock-provider-v4',
    modelId: 'mock-model-v4',
    doStream: turns.map((chunks) => ({
      stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }),
    })),
  });
}
