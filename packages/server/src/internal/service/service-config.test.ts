import { describe, expect, it } from 'vitest';
import { resolveServiceConfig } from './service-config';

describe('resolveServiceConfig', () => {
  it('fills in the defaults, deriving heartbeat and sweep from the lease', () => {
    const config = resolveServiceConfig({ agents: [], leaseMs: 9_000 });
    expect(config).toMatchObject({
      concurrency: 4,
      leaseMs: 9_000,
      heartbeatMs: 3_000,
      sweepIntervalMs: 4_500,
      maxAttempts: 5,
      hotCacheSize: 256,
      retry: { baseDelayMs: 1_000, maxDelayMs: 60_000, jitter: 0.5 },
    });
    expect(config.workerId).toMatch(/:\d+:/);
  });

  it('rejects bad values as invalid_config naming the field', () => {
    expect(() => resolveServiceConfig({ agents: [], concurrency: -1 })).toThrow(/concurrency/);
    expect(() => resolveServiceConfig({ agents: [], leaseMs: 1.5 })).toThrow(/leaseMs/);
    expect(() => resolveServiceConfig({ agents: [], retry: { jitter: 2 } })).toThrow(/retry\.jitter/);
    expect(() => resolveServiceConfig({ agents: [], leaseMs: 100, heartbeatMs: 100 })).toThrow(/heartbeatMs/);
    expect(() => resolveServiceConfig({ agents: [], workerId: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_config' }),
    );
  });
});
