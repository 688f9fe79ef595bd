import { describe, expect, it } from 'vitest';
import { retryDelay } from './retry-delay';

const policy = (random: number, jitter = 0.5) => ({
  retry: { baseDelayMs: 100, maxDelayMs: 1_000, jitter },
  random: () => random,
});

describe('retryDelay', () => {
  it('doubles per attempt up to the cap, without jitter when random is 0', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelay(attempt, policy(0)))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('takes off up to the jitter share of the delay', () => {
    expect(retryDelay(3, policy(1))).toBe(200);
    expect(retryDelay(3, policy(0.5))).toBe(300);
    expect(retryDelay(3, policy(1, 0))).toBe(400);
  });

  it('never retries sooner than the provider asked', () => {
    expect(retryDelay(1, policy(0), 5_000)).toBe(5_000);
    expect(retryDelay(4, policy(0), 10)).toBe(800);
    expect(retryDelay(1, policy(0), Number.NaN)).toBe(100);
    expect(retryDelay(1, policy(0), -5)).toBe(100);
  });
});
