import type { JSONObject } from '@ai-sdk/provider';
import { toJsonValue } from './to-json-value';

/**
 * The input of a past tool call as sent back to the provider: always a JSON object, because several
 * APIs (Anthropic, Google) reject any other input and would then refuse every later request of the
 * conversation. Arguments kept as raw text (the model emitted invalid JSON) are parsed when they can
 * be, and otherwise sent as `{}`: the call's error result already tells the model what went wrong.
 */
export function toToolCallInput(argumentsValue: unknown): JSONObject {
  let value = argumentsValue;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  const json = toJsonValue(value);
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? json : {};
}
