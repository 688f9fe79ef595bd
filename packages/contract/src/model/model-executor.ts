import type { Message } from '../messages/message';
import type { JsonSchema } from '../hitl/suspension';
import type { TokenUsage } from './token-usage';

/** A tool as the model sees it: name, description and JSON Schema parameters. */
export interface ToolDescriptor {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** Which tools the model may or must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; toolName: string };

/** Provider-independent inference options. */
export interface InferenceOptions {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  stopSequences?: string[];
  seed?: number;
  /** Passed through untouched to the provider (e.g. `{ openai: { reasoningEffort: 'low' } }`). */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** One streamed inference request. The executor must stop promptly when `signal` aborts. */
export interface InferenceRequest {
  system?: string;
  messages: readonly Message[];
  tools: readonly ToolDescriptor[];
  toolChoice?: ToolChoice;
  options: InferenceOptions;
  signal: AbortSignal;
}

/** Why the model stopped. */
export type FinishReason =
  | 'stop'
  | 'length'
  | 'tool-calls'
  | 'content-filter'
  | 'error'
  | 'other'
  | 'unknown';

/**
 * One streamed part of a response. Tool call arguments arrive as `tool_call_args_delta` text and
 * end with one `tool_call` part carrying the complete JSON text in `input`. The stream ends with
 * exactly one `finish` part.
 */
export type InferenceStreamPart =
  | { type: 'text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string }
  | { type: 'tool_call_start'; toolCallId: string; toolName: string }
  | { type: 'tool_call_args_delta'; toolCallId: string; delta: string }
  | { type: 'tool_call'; toolCallId: string; toolName: string; input: string }
  | {
      type: 'finish';
      finishReason: FinishReason;
      usage: TokenUsage;
      model?: string;
      providerMetadata?: Record<string, unknown>;
    };

/**
 * The model as the runtime sees it. `stream` yields parts for one inference. It throws an
 * `AwakenError` with code `model_transient` (retrying may succeed; `retryAfterMs` when known) or
 * `model_permanent` on failure, and an abort when the request's signal fires.
 */
export interface ModelExecutor {
  /** A label for events and metrics, e.g. `openai:gpt-4o`. */
  readonly modelId?: string;
  stream(request: InferenceRequest): AsyncIterable<InferenceStreamPart>;
}
