import {
  type AgentEvent,
  AwakenError,
  type AwakenErrorCode,
  type FinishReason,
  type InferenceStreamPart,
  type ModelExecutor,
  type TokenUsage,
} from '@awaken/contract';

/** One model call as the recording saw it: its streamed parts, then a finish or an error. */
export interface RecordedTurn {
  parts: InferenceStreamPart[];
  finish: { finishReason: string; usage: TokenUsage; model?: string };
  /** Set when the call failed (an `error` event followed its `inference_complete`). */
  error?: { code: string; message: string };
}

const FINISH_REASONS = new Set([
  'stop',
  'length',
  'tool-calls',
  'content-filter',
  'error',
  'other',
  'unknown',
]);
const MODEL_ERRORS = new Set(['model_transient', 'model_permanent']);

/**
 * The model turns of a recorded run, in call order: each `inference_complete` closes a turn made of
 * the text, reasoning and tool call events streamed since the previous one (a tool call's complete
 * input is its argument deltas joined, ending where its `tool_call_ready` was).
 */
export function recordedTurns(events: readonly AgentEvent[]): RecordedTurn[] {
  const turns: RecordedTurn[] = [];
  let parts: InferenceStreamPart[] = [];
  let calls = new Map<string, { toolName: string; input: string; ended: boolean }>();
  const endCall = (toolCallId: string) => {
    const call = calls.get(toolCallId);
    if (!call || call.ended) return;
    call.ended = true;
    parts.push({ type: 'tool_call', toolCallId, toolName: call.toolName, input: call.input });
  };
  for (const [index, event] of events.entries()) {
    switch (event.type) {
      case 'step_start':
        parts = [];
        calls = new Map();
        break;
      case 'text_delta':
        parts.push({ type: 'text_delta', delta: event.delta });
        break;
      case 'reasoning_delta':
        parts.push({ type: 'reasoning_delta', delta: event.delta });
        break;
      case 'tool_call_start':
        calls.set(event.toolCallId, { toolName: event.toolName, input: '', ended: false });
        parts.push({ type: 'tool_call_start', toolCallId: event.toolCallId, toolName: event.toolName });
        break;
      case 'tool_call_args_delta': {
        const call = calls.get(event.toolCallId);
        if (call) call.input += event.delta;
        parts.push({ type: 'tool_call_args_delta', toolCallId: event.toolCallId, delta: event.delta });
        break;
      }
      case 'tool_call_ready':
        endCall(event.toolCallId);
        break;
      case 'inference_complete': {
        for (const toolCallId of calls.keys()) endCall(toolCallId);
        const turn: RecordedTurn = {
          parts,
          finish: {
            finishReason: event.finishReason,
            usage: event.usage,
            ...(event.model === undefined ? {} : { model: event.model }),
          },
        };
        if (event.finishReason === 'error') {
          const failure = events
            .slice(index + 1)
            .find((later) => later.type === 'error' || later.type === 'step_start');
          if (failure?.type === 'error') turn.error = { code: failure.code, message: failure.message };
        }
        turns.push(turn);
        parts = [];
        calls = new Map();
        break;
      }
      default:
        break;
    }
  }
  return turns;
}

/** A model executor answering each call with the next recorded turn; it never calls a provider. */
export interface RecordedModel extends ModelExecutor {
  /** How many calls it answered. */
  readonly callCount: number;
}

/**
 * A model that replays recorded turns in order. A call past the last recorded turn throws
 * `model_permanent` (the replay asked the model more often than the recording did: a divergence).
 */
export function createRecordedModel(turns: readonly RecordedTurn[]): RecordedModel {
  let callCount = 0;
  const modelId = turns.find((turn) => turn.finish.model)?.finish.model ?? 'recorded';
  return {
    modelId,
    get callCount() {
      return callCount;
    },
    async *stream(request) {
      const index = callCount++;
      const turn = turns[index];
      if (!turn) {
        throw new AwakenError(
          'model_permanent',
          `the recording has no model turn left for call ${index + 1} (it recorded ${turns.length})`,
        );
      }
      for (const part of turn.parts) {
        if (request.signal.aborted) throw request.signal.reason;
        yield part;
      }
      if (turn.error) {
        const code = (
          MODEL_ERRORS.has(turn.error.code) ? turn.error.code : 'model_permanent'
        ) as AwakenErrorCode;
        throw new AwakenError(code, turn.error.message);
      }
      const finishReason = (
        FINISH_REASONS.has(turn.finish.finishReason) ? turn.finish.finishReason : 'other'
      ) as FinishReason;
      yield {
        type: 'finish',
        finishReason,
        usage: turn.finish.usage,
        ...(turn.finish.model === undefined ? {} : { model: turn.finish.model }),
      };
    },
  };
}
