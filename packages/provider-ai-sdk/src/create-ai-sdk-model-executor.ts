import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import {
  AwakenError,
  type InferenceRequest,
  type InferenceStreamPart,
  type ModelExecutor,
} from '@awaken/contract';
import { type AiSdkLanguageModel, SUPPORTED_SPECIFICATION_VERSIONS } from './ai-sdk-language-model';
import { classifyModelError } from './classify-model-error';
import { type CallDefaults, toCallOptions } from './internal/to-call-options';
import type { InlineSystemMessages } from './internal/to-prompt';
import { createStreamTranslator } from './internal/translate-stream';

/** Options of {@link createAiSdkModelExecutor}. */
export interface AiSdkModelExecutorOptions {
  /** The label in events and metrics. Default: `<provider>:<modelId>`, e.g. `openai.responses:gpt-4o`. */
  modelId?: string;
  /**
   * Call settings used when a request leaves them unset (`topK`, `presencePenalty` and
   * `frequencyPenalty` only exist here). `providerOptions` are merged per provider, request keys win.
   */
  defaults?: CallDefaults;
  /** Extra HTTP headers sent with every call. */
  headers?: Record<string, string | undefined>;
  /**
   * How a system message after the start of the conversation is sent. `'user'` (default) sends it as
   * a user message wrapped in `<system-message>` tags, which every provider accepts (Anthropic and
   * Google reject system messages after the first user turn); `'system'` keeps it a system message.
   */
  inlineSystemMessages?: InlineSystemMessages;
}

/**
 * Uses any AI SDK language model — `LanguageModelV3` (AI SDK 6 providers) or `LanguageModelV4` (AI
 * SDK 7 providers): `@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google`,
 * `@ai-sdk/openai-compatible`, ... — as the runtime's model executor, through its `doStream`. The
 * prompt and call options sent are valid for both specifications.
 *
 * Guarantees:
 * - the prompt pairs every assistant tool call with exactly one tool result right after it (failed
 *   calls as error results, cancelled or denied calls as `execution-denied` with the reason), so a
 *   conversation that went through suspensions and resumes is always accepted;
 * - text, reasoning and tool-call argument deltas are yielded as they arrive; each tool call ends
 *   with one `tool_call` carrying its complete JSON input; the stream ends with exactly one `finish`
 *   carrying usage, finish reason, the response model id and the provider metadata;
 * - failures throw `model_transient` or `model_permanent` (see {@link classifyModelError}); when the
 *   request's signal aborts, the provider stream is cancelled and the signal's reason is thrown.
 */
export function createAiSdkModelExecutor(
  model: AiSdkLanguageModel,
  options: AiSdkModelExecutorOptions = {},
): ModelExecutor {
  const version = (model as Partial<AiSdkLanguageModel> | undefined)?.specificationVersion;
  if (version === undefined || !SUPPORTED_SPECIFICATION_VERSIONS.includes(version)) {
    throw new AwakenError(
      'invalid_config',
      `expected an AI SDK 6 or 7 language model (specificationVersion 'v3' or 'v4'), got '${String(version)}'`,
    );
  }
  const settings = {
    defaults: options.defaults ?? {},
    headers: options.headers,
    inlineSystemMessages: options.inlineSystemMessages ?? 'user',
  };
  return {
    modelId: options.modelId ?? `${model.provider}:${model.modelId}`,
    stream: (request) => streamInference(model, request, settings),
  };
}

/** The one call the executor makes; V3 and V4 share the shapes it sends and reads. */
type StreamCall = (
  options: LanguageModelV3CallOptions,
) => PromiseLike<{ stream: ReadableStream<LanguageModelV3StreamPart> }>;

async function* streamInference(
  model: AiSdkLanguageModel,
  request: InferenceRequest,
  settings: Parameters<typeof toCallOptions>[1],
): AsyncGenerator<InferenceStreamPart> {
  const { signal } = request;
  if (signal.aborted) throw signal.reason;
  const translator = createStreamTranslator(model.modelId);
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  const cancelReader = () => {
    reader?.cancel(signal.reason).catch(() => {});
  };
  signal.addEventListener('abort', cancelReader, { once: true });
  try {
    const doStream = model.doStream.bind(model) as unknown as StreamCall;
    const started = doStream(toCallOptions(request, settings));
    const result = await untilAborted(started, signal).catch((error: unknown) => {
      // A provider that ignored the signal may still answer: cancel that stream, nobody will read it.
      if (signal.aborted)
        Promise.resolve(started).then(
          ({ stream }) => stream.cancel(signal.reason).catch(() => {}),
          () => {},
        );
      throw error;
    });
    reader = result.stream.getReader();
    if (signal.aborted) cancelReader();
    while (true) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      for (const part of translator.translate(value)) yield part;
    }
    yield translator.finish();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw classifyModelError(error);
  } finally {
    signal.removeEventListener('abort', cancelReader);
    // Reached early when the consumer stops iterating or an error part ended the stream.
    if (reader !== undefined) {
      reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
}

/** Settles with `promise`, or rejects with the signal's reason first: a provider may ignore the signal. */
function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
