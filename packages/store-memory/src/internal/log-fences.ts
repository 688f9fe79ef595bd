import type { RunEventLog } from '@awaken/contract';

/**
 * A memory event log's fence, reachable synchronously by a memory thread-run store (for the joint
 * `acquireRunWithFence`): `check` throws `stale_claim` as `raiseFence` would and writes nothing;
 * `raise` then raises the fence and returns the last seq. Both run in one tick with the acquisition.
 */
export interface LogFences {
  check(runId: string, fence: number): void;
  raise(runId: string, fence: number): number;
}

const registry = new WeakMap<RunEventLog, LogFences>();

/** Registers `fences` for `log` (each view of a memory log, the plain one and the trusted one). */
export function registerLogFences(log: RunEventLog, fences: LogFences): RunEventLog {
  registry.set(log, fences);
  return log;
}

/** The fences of a memory event log, or undefined for any other log. */
export function logFencesOf(log: RunEventLog): LogFences | undefined {
  return registry.get(log);
}
