/**
 * An AI SDK language model as this package takes it: `LanguageModelV3` (the providers of AI SDK 6,
 * `@ai-sdk/provider` 3) or `LanguageModelV4` (AI SDK 7, `@ai-sdk/provider` 4). Declared by shape so
 * that a model typed by either version of `@ai-sdk/provider` is accepted, whichever one is installed.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v3' | 'v4';
  readonly provider: string;
  readonly modelId: string;
  // `never`: a model's own call-options type (V3 or V4) is accepted; the executor builds options
  // valid for both specifications.
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/** The specification versions {@link AiSdkLanguageModel} covers. */
export const SUPPORTED_SPECIFICATION_VERSIONS: readonly string[] = ['v3', 'v4'];
