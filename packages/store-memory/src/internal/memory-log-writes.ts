import type { AgentEvent } from '@awaken/contract';

/**
 * The synchronous writes of a memory event log, for the memory thread-run store's joint checkpoint
 * write and joint acquisition (`acquireRunWithFence`): each does its checks and its writes with no
 * await, so a joint call runs them one after the other with nothing else in between (atomic, as one
 * transaction or one script elsewhere).
 * Inputs are parsed already. Each throws the error the log's own call rejects with.
 */
export interface MemoryLogWrites {
  /** The checks of `append` (fence, finished log, consecutive seqs), writing nothing. */
  check(runId: string, events: readonly AgentEvent[], fence: number | undefined): void;
  append(runId: string, events: readonly AgentEvent[], fence: number | undefined): void;
  finish(runId: string, fence: number | undefined, ttlMs: number | undefined): void;
  /** The checks of `raiseFence` (`stale_claim` below the log's fence), writing nothing. */
  checkFence(runId: string, fence: number): void;
  /** `raiseFence`: the log's fence raised to `fence`; answers the log's last seq. */
  raiseFence(runId: string, fence: number): number;
}

/** The memory event logs (and their trusted views) themselves, by identity. */
const logs = new WeakMap<object, MemoryLogWrites>();

/** Registers `log` (a memory event log) with its synchronous writes; returns it. */
export function withMemoryLogWrites<T extends object>(log: T, writes: MemoryLogWrites): T {
  logs.set(log, writes);
  return log;
}

/**
 * The synchronous writes of `log` when it is a memory event log itself — not a wrapper of one (a
 * Proxy, `Object.create`, a spread), whose calls may differ from the log's — else undefined.
 */
export function memoryLogWrites(log: unknown): MemoryLogWrites | undefined {
  return typeof log === 'object' && log !== null ? logs.get(log) : undefined;
}
