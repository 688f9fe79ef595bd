import {
  AwakenError,
  type FinishReason,
  type InferenceRequest,
  type InferenceStreamPart,
  type ModelExecutor,
  type TokenUsage,
} from '@awaken/contract';
import { abortableSleep } from './abortable-sleep';

/** One scripted model turn. Text and reasoning are streamed in `chunkSize`-character deltas. */
export interface ScriptedTurn {
  text?: string;
  reasoning?: string;
  /** `arguments` may be a value (serialised to JSON) or a raw string (sent as is, e.g. invalid JSON). */
  toolCalls?: Array<{ id?: string; name: string; arguments?: unknown }>;
  usage?: Partial<TokenUsage>;
  finishReason?: FinishReason;
  /** Delay before each streamed part, honouring the abort signal. */
  delayMs?: number;
  chunkSize?: number;
  /** Throw this error instead of answering (after any delay). */
  error?: Error;
}

export type ScriptedTurnSource =
  | ScriptedTurn[]
  | ((request: InferenceRequest, callIndex: number) => ScriptedTurn);

/** A model executor that answers from a script and records every request it received. */
export interface ScriptedModel extends ModelExecutor {
  /** Copies of the requests received, without their signals. */
  readonly requests: Array<Omit<InferenceRequest, 'signal'>>;
  readonly callCount: number;
  /** Appends turns to a queue script. */
  push(...turns: ScriptedTurn[]): void;
}

function chunks(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size) parts.push(text.slice(index, index + size));
  return parts;
}

function usageOf(turn: ScriptedTurn): TokenUsage {
  const inputTokens = turn.usage?.inputTokens ?? 10;
  const outputTokens = turn.usage?.outputTokens ?? 5;
  return { inputTokens, outputTokens, totalTokens: turn.usage?.totalTokens ?? inputTokens + outputTokens };
}

function* partsOf(turn: ScriptedTurn, callIndex: number): Generator<InferenceStreamPart> {
  const size = turn.chunkSize ?? 4;
  for (const delta of chunks(turn.reasoning ?? '', size)) yield { type: 'reasoning_delta', delta };
  for (const delta of chunks(turn.text ?? '', size)) yield { type: 'text_delta', delta };
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const toolCallId = call.id ?? `call_${callIndex}_${index}`;
    const input = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    yield { type: 'tool_call_start', toolCallId, toolName: call.name };
    for (const delta of chunks(input, Math.max(size, 8)))
      yield { type: 'tool_call_args_delta', toolCallId, delta };
    yield { type: 'tool_call', toolCallId, toolName: call.name, input };
  }
  const finishReason = turn.finishReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool-calls' : 'stop');
  yield { type: 'finish', finishReason, usage: usageOf(turn), model: 'scripted' };
}

/**
 * Creates a scripted model. With an array, each call takes the next turn and an exhausted script
 * throws `model_permanent`; with a function, the function decides each turn.
 */
export function createScriptedModel(source: ScriptedTurnSource = []): ScriptedModel {
  const queue = Array.isArray(source) ? [...source] : [];
  const requests: Array<Omit<InferenceRequest, 'signal'>> = [];
  let callCount = 0;

  function nextTurn(request: InferenceRequest, index: number): ScriptedTurn {
    if (!Array.isArray(source)) return source(request, index);
    const turn = queue.shift();
    if (turn === undefined)
      throw new AwakenError('model_permanent', `scripted model has no turn left for call ${index + 1}`);
    return turn;
  }

  return {
    modelId: 'scripted',
    requests,
    get callCount() {
      return callCount;
    },
    push(...turns) {
      queue.push(...turns);
    },
    async *stream(request) {
      const index = callCount++;
      const { signal, ...rest } = request;
      requests.push(structuredClone(rest));
      const turn = nextTurn(request, index);
      if (turn.error) {
        if (turn.delayMs) await abortableSleep(turn.delayMs, signal);
        throw turn.error;
      }
      for (const part of partsOf(turn, index)) {
        if (turn.delayMs) await abortableSleep(turn.delayMs, signal);
        if (signal.aborted) throw signal.reason;
        yield part;
      }
    },
  };
}
