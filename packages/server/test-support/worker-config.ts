import type { RetryPolicy } from '../src/types';

/** The service settings every process of one test cluster uses. */
export interface WorkerConfig {
  concurrency: number;
  leaseMs: number;
  heartbeatMs: number;
  sweepIntervalMs: number;
  idleWaitMs: number;
  maxAttempts: number;
  retry: RetryPolicy;
}

/** Short leases and retries, so reclaims and backoffs happen within a test. */
export const FAST: WorkerConfig = {
  concurrency: 8,
  leaseMs: 1_500,
  heartbeatMs: 300,
  sweepIntervalMs: 300,
  idleWaitMs: 200,
  maxAttempts: 5,
  retry: { baseDelayMs: 50, maxDelayMs: 400, jitter: 0.5 },
};

/**
 * The suite's settings: leases long enough that a worker starved of CPU by a busy machine does not
 * lose them (a lost lease means the run continues elsewhere, re-running uncommitted tool calls, as
 * designed — which the exactly-once assertions of the suite do not expect), retries still fast.
 */
export const STEADY: WorkerConfig = {
  ...FAST,
  leaseMs: 6_000,
  heartbeatMs: 1_000,
  sweepIntervalMs: 500,
};
