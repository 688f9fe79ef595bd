import type { LanguageModelV3FinishReason, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { FinishReason, TokenUsage } from '@awaken/contract';

function count(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

function sumOf(...values: Array<number | undefined>): number | undefined {
  const known = values.map(count).filter((value): value is number => value !== undefined);
  return known.length === 0 ? undefined : known.reduce((sum, value) => sum + value, 0);
}

/**
 * Flattens the nested V3 usage. A total the provider left out is rebuilt from its parts (input: no
 * cache + cache read + cache write; output: text + reasoning); unknown counts are 0, and
 * `totalTokens` is always input + output. `cachedInputTokens` is the cache read count,
 * `reasoningTokens` the reasoning part of the output, each only when the provider reports it.
 */
export function toUsage(usage: LanguageModelV3Usage | undefined): TokenUsage {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  const inputTokens = count(input?.total) ?? sumOf(input?.noCache, input?.cacheRead, input?.cacheWrite) ?? 0;
  const outputTokens = count(output?.total) ?? sumOf(output?.text, output?.reasoning) ?? 0;
  const result: TokenUsage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  const cachedInputTokens = count(input?.cacheRead);
  if (cachedInputTokens !== undefined) result.cachedInputTokens = cachedInputTokens;
  const reasoningTokens = count(output?.reasoning);
  if (reasoningTokens !== undefined) result.reasoningTokens = reasoningTokens;
  return result;
}

const FINISH_REASONS: ReadonlySet<string> = new Set<FinishReason>([
  'stop',
  'length',
  'tool-calls',
  'content-filter',
  'error',
  'other',
]);

/**
 * The unified V3/V4 finish reason; a provider still sending a bare string (V2 style) is accepted too.
 * V4's `interrupted` (the provider stopped the generation early) has no contract value and is `other`.
 */
export function toFinishReason(reason: LanguageModelV3FinishReason | string | undefined): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason?.unified;
  if (unified === 'interrupted') return 'other';
  return unified !== undefined && FINISH_REASONS.has(unified) ? (unified as FinishReason) : 'unknown';
}
