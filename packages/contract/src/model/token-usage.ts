import { z } from 'zod';

/** A count of tokens: an integer >= 0. */
const tokenCount = z.number().int().nonnegative();

/** Token counts of one inference or summed over a run. */
export const tokenUsageSchema = z.object({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  totalTokens: tokenCount,
  cachedInputTokens: tokenCount.optional(),
  reasoningTokens: tokenCount.optional(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

export const EMPTY_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

/** Sums two usages; optional counts are summed when either side has them. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined) {
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  }
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  return sum;
}
