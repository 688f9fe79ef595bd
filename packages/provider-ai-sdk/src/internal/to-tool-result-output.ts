import type { LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import { type ToolMessage, assertNever } from '@awaken/contract';
import { toJsonValue, toReadableText } from './to-json-value';

/** What the model reads for a call whose result was never recorded (see `toPrompt`). */
export const MISSING_RESULT_TEXT = 'The tool call has no result: it did not complete and will not run.';

const CANCELLED_TEXT = 'The tool call was cancelled and did not run.';

const EXPIRED_TEXT = 'The approval for this tool call expired before anyone answered; it did not run.';

/**
 * Maps one tool message to the V3 tool result output the provider sends to the model.
 *
 * - `succeeded`: a string becomes `text`, anything else `json` (the AI SDK's own convention);
 * - `failed`: `error-text` / `error-json`, so providers that flag errors (Anthropic `is_error`) do so;
 * - `cancelled`: `execution-denied` with a reason that says the call did not run and why (the content
 *   itself when a string, else its `reason` or `message` field, else its JSON). Every AI SDK
 *   provider renders it as text the model reads; it is what `generateText` itself sends for a denial;
 * - `expired`: `error-text` saying the approval expired (not a denial: nobody answered in time).
 */
export function toToolResultOutput(message: ToolMessage): LanguageModelV3ToolResultOutput {
  switch (message.outcome) {
    case 'succeeded':
      return typeof message.content === 'string'
        ? { type: 'text', value: message.content }
        : { type: 'json', value: toJsonValue(message.content) };
    case 'failed':
      return typeof message.content === 'string'
        ? { type: 'error-text', value: message.content }
        : { type: 'error-json', value: toJsonValue(message.content) };
    case 'cancelled': {
      const reason = cancelReasonOf(message.content).trim();
      return {
        type: 'execution-denied',
        reason: reason === '' ? CANCELLED_TEXT : `${CANCELLED_TEXT} Reason: ${reason}`,
      };
    }
    case 'expired': {
      const reason = cancelReasonOf(message.content).trim();
      return { type: 'error-text', value: reason === '' ? EXPIRED_TEXT : reason };
    }
    default:
      return assertNever(message.outcome, 'tool outcome');
  }
}

/** The human-readable reason of a cancellation: a string, or the `reason` / `message` of an object. */
function cancelReasonOf(content: unknown): string {
  if (typeof content === 'object' && content !== null) {
    const record = content as Record<string, unknown>;
    if (typeof record.reason === 'string') return record.reason;
    if (typeof record.message === 'string') return record.message;
  }
  return toReadableText(content);
}
