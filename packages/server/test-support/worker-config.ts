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
