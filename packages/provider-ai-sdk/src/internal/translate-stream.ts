import type { LanguageModelV3StreamPart, SharedV3ProviderMetadata } from '@ai-sdk/provider';
import { AwakenError, type InferenceStreamPart } from '@awaken/contract';
import { classifyModelError } from '../classify-model-error';
import { toFinishReason, toUsage } from './to-usage';

interface OpenToolCall {
  /** False for `inputEncoding: 'text'`: raw text deltas would not concatenate to JSON. */
  forwardDeltas: boolean;
  sentDelta: boolean;
}

/** Translates one V3 stream into inference parts; one translator per `doStream` call. */
export interface StreamTranslator {
  /** The parts to yield for one V3 part. Throws the classified error for an `error` part. */
  translate(part: LanguageModelV3StreamPart): InferenceStreamPart[];
  /** The single closing `finish` part. Throws `model_transient` if the stream never finished. */
  finish(): InferenceStreamPart;
}

/**
 * Creates a translator. Tool calls the provider executes itself (`providerExecuted`) are not
 * reported: the runtime must not run them and has no result to send back. Every reported call gets
 * `tool_call_start`, at least one `tool_call_args_delta` and one `tool_call`, even when the provider
 * sends the call in one piece.
 */
export function createStreamTranslator(fallbackModelId: string): StreamTranslator {
  const open = new Map<string, OpenToolCall>();
  const providerExecuted = new Set<string>();
  let responseModelId: string | undefined;
  let finishPart: Extract<LanguageModelV3StreamPart, { type: 'finish' }> | undefined;

  function completeCall(
    part: Extract<LanguageModelV3StreamPart, { type: 'tool-call' }>,
  ): InferenceStreamPart[] {
    const input = part.input.trim() === '' ? '{}' : part.input;
    const parts: InferenceStreamPart[] = [];
    let call = open.get(part.toolCallId);
    if (call === undefined) {
      call = { forwardDeltas: true, sentDelta: false };
      parts.push({ type: 'tool_call_start', toolCallId: part.toolCallId, toolName: part.toolName });
    }
    open.delete(part.toolCallId);
    if (!call.sentDelta)
      parts.push({ type: 'tool_call_args_delta', toolCallId: part.toolCallId, delta: input });
    parts.push({ type: 'tool_call', toolCallId: part.toolCallId, toolName: part.toolName, input });
    return parts;
  }

  return {
    translate(part) {
      switch (part.type) {
        case 'text-delta':
          return part.delta === '' ? [] : [{ type: 'text_delta', delta: part.delta }];
        case 'reasoning-delta':
          return part.delta === '' ? [] : [{ type: 'reasoning_delta', delta: part.delta }];
        case 'tool-input-start':
          if (part.providerExecuted) {
            providerExecuted.add(part.id);
            return [];
          }
          open.set(part.id, { forwardDeltas: part.inputEncoding !== 'text', sentDelta: false });
          return [{ type: 'tool_call_start', toolCallId: part.id, toolName: part.toolName }];
        case 'tool-input-delta': {
          const call = open.get(part.id);
          if (call === undefined || !call.forwardDeltas || part.delta === '') return [];
          call.sentDelta = true;
          return [{ type: 'tool_call_args_delta', toolCallId: part.id, delta: part.delta }];
        }
        case 'tool-call':
          if (part.providerExecuted || providerExecuted.has(part.toolCallId)) return [];
          return completeCall(part);
        case 'response-metadata':
          if (part.modelId !== undefined) responseModelId = part.modelId;
          return [];
        case 'finish':
          finishPart = part;
          return [];
        case 'error':
          throw classifyModelError(part.error);
        default:
          // text/reasoning start and end, tool-input-end, stream-start, raw, files, sources,
          // provider tool results and approval requests carry nothing the contract reports.
          return [];
      }
    },
    finish() {
      if (finishPart === undefined) {
        throw new AwakenError('model_transient', 'the model stream ended without a finish part', {
          retryable: true,
          details: { reason: 'incomplete_stream' },
        });
      }
      const metadata: SharedV3ProviderMetadata | undefined = finishPart.providerMetadata;
      return {
        type: 'finish',
        finishReason: toFinishReason(finishPart.finishReason),
        usage: toUsage(finishPart.usage),
        model: responseModelId ?? fallbackModelId,
        ...(metadata === undefined ? {} : { providerMetadata: metadata }),
      };
    },
  };
}
