import type {
  JSONObject,
  JSONSchema7,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3ToolChoice,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import type { InferenceRequest, ToolChoice, ToolDescriptor } from '@awaken/contract';
import { type InlineSystemMessages, toPrompt } from './to-prompt';

/** Call settings the executor applies when a request does not set them. */
export interface CallDefaults {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  providerOptions?: Record<string, Record<string, unknown>>;
}

export interface ToCallOptionsSettings {
  defaults: CallDefaults;
  headers?: Record<string, string | undefined>;
  inlineSystemMessages: InlineSystemMessages;
}

/** Maps one inference request onto `doStream` call options; request options win over defaults. */
export function toCallOptions(
  request: InferenceRequest,
  settings: ToCallOptionsSettings,
): LanguageModelV3CallOptions {
  const { defaults } = settings;
  const options = request.options;
  const callOptions: LanguageModelV3CallOptions = {
    prompt: toPrompt({
      system: request.system,
      messages: request.messages,
      inlineSystemMessages: settings.inlineSystemMessages,
    }),
    abortSignal: request.signal,
  };
  assignDefined(callOptions, {
    temperature: options.temperature ?? defaults.temperature,
    maxOutputTokens: options.maxOutputTokens ?? defaults.maxOutputTokens,
    topP: options.topP ?? defaults.topP,
    topK: defaults.topK,
    presencePenalty: defaults.presencePenalty,
    frequencyPenalty: defaults.frequencyPenalty,
    stopSequences: options.stopSequences ?? defaults.stopSequences,
    seed: options.seed ?? defaults.seed,
    providerOptions: mergeProviderOptions(defaults.providerOptions, options.providerOptions),
    headers: settings.headers,
  });
  if (request.tools.length > 0) {
    callOptions.tools = request.tools.map(toFunctionTool);
    if (request.toolChoice !== undefined) callOptions.toolChoice = toToolChoice(request.toolChoice);
  }
  return callOptions;
}

function assignDefined<T extends object>(target: T, values: Partial<T>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}

function toFunctionTool(tool: ToolDescriptor): LanguageModelV3FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as JSONSchema7,
  };
}

function toToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.toolName };
}

/** Shallow merge per provider key: the request's options for a provider override the defaults' keys. */
function mergeProviderOptions(
  defaults: Record<string, Record<string, unknown>> | undefined,
  request: Record<string, Record<string, unknown>> | undefined,
): SharedV3ProviderOptions | undefined {
  if (defaults === undefined && request === undefined) return undefined;
  const merged: Record<string, Record<string, unknown>> = { ...defaults };
  for (const [provider, values] of Object.entries(request ?? {})) {
    merged[provider] = { ...merged[provider], ...values };
  }
  return merged as Record<string, JSONObject>;
}
