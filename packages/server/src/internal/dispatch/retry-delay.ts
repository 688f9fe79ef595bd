import type { ServiceConfig } from '../service/service-config';

/**
 * The delay before retry number `attempt` (1 for the first retry): `baseDelayMs × 2^(attempt−1)`
 * capped at `maxDelayMs`, less a random share of up to `jitter` of it (so retries of many runs
 * spread out), and never shorter than a provider's `retryAfterMs`.
 */
export function retryDelay(
  attempt: number,
  config: Pick<ServiceConfig, 'retry' | 'random'>,
  retryAfterMs?: number,
): number {
  const { baseDelayMs, maxDelayMs, jitter } = config.retry;
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exponential * (1 - jitter * config.random()));
  const floor = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) ? Math.max(0, retryAfterMs) : 0;
  return Math.max(jittered, Math.ceil(floor));
}
