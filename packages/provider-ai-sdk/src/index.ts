export { createAiSdkModelExecutor } from './create-ai-sdk-model-executor';
export type { AiSdkModelExecutorOptions } from './create-ai-sdk-model-executor';
export type { AiSdkLanguageModel } from './ai-sdk-language-model';
export { classifyModelError } from './classify-model-error';
export { PERMANENT_KINDS, TRANSIENT_KINDS } from './internal/model-error-kind';
export type { ModelErrorKind } from './internal/model-error-kind';
export type { CallDefaults } from './internal/to-call-options';
export type { InlineSystemMessages } from './internal/to-prompt';
