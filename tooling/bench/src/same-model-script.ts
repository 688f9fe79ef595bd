import type {
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/**
 * The scripted conversation both sides of the same-model benchmark run: `steps` model turns that
 * each call the trivial tool `noop` `callsPerStep` times, then one turn answering with text.
 * The streaming and non-streaming forms carry the same calls, ids, inputs and usage.
 */
export interface Scenario {
  steps: number;
  callsPerStep: number;
}

const USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function callsOf(turn: number, scenario: Scenario) {
  return Array.from({ length: scenario.callsPerStep }, (_, index) => ({
    toolCallId: `call_${turn}_${index}`,
    input: JSON.stringify({ value: `${turn}-${index}` }),
  }));
}

function streamParts(turn: number, scenario: Scenario): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (turn >= scenario.steps) {
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'All ' },
      { type: 'text-delta', id: 't', delta: 'done.' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE },
    );
    return parts;
  }
  for (const call of callsOf(turn, scenario)) {
    parts.push(
      { type: 'tool-input-start', id: call.toolCallId, toolName: 'noop' },
      { type: 'tool-input-delta', id: call.toolCallId, delta: call.input },
      { type: 'tool-input-end', id: call.toolCallId },
      { type: 'tool-call', toolCallId: call.toolCallId, toolName: 'noop', input: call.input },
    );
  }
  parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: USAGE });
  return parts;
}

function generateResult(turn: number, scenario: Scenario): LanguageModelV3GenerateResult {
  const final = turn >= scenario.steps;
  return {
    content: final
      ? [{ type: 'text', text: 'All done.' }]
      : callsOf(turn, scenario).map((call) => ({ type: 'tool-call' as const, toolName: 'noop', ...call })),
    finishReason: final ? { unified: 'stop', raw: 'stop' } : { unified: 'tool-calls', raw: 'tool_use' },
    usage: USAGE,
    warnings: [],
  };
}

function toStream(parts: LanguageModelV3StreamPart[]): LanguageModelV3StreamResult {
  let index = 0;
  return {
    stream: new ReadableStream({
      pull(controller) {
        const part = parts[index++];
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    }),
  };
}

/** A fresh mock model answering the scenario, turn by turn, through `doStream` and `doGenerate`. */
export function createScenarioModel(scenario: Scenario): MockLanguageModelV3 {
  let streamTurn = 0;
  let generateTurn = 0;
  return new MockLanguageModelV3({
    provider: 'bench',
    modelId: 'scripted',
    doStream: async () => toStream(streamParts(streamTurn++, scenario)),
    doGenerate: async () => generateResult(generateTurn++, scenario),
  });
}
