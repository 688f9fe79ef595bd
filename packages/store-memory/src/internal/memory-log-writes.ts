import type { AgentEvent } from '@awaken/contract';

/**
 * The synchronous writes of a memory event log, for the memory thread-run store's joint checkpoint
 * write: each does its checks and its writes with no await, so the joint write runs them one after
 * the other with nothing else in between (atomic, as one transaction or one script elsewhere).
 * Inputs are parsed already. Each throws the error the log's own call rejects with.
 */
export interface MemoryLogWrites {
  /** The checks of `append` (fence, finished log, consecutive seqs), writing nothing. */
  check(runId: string, events: readonly AgentEvent[], fence: number | undefined): void;
  append(runId: string, events: readonly AgentEvent[], fence: number | undefined): void;
  finish(runId: string, fence: number | undefined, ttlMs: number | undefined): void;
}

/** Where a memory event log keeps its {@link MemoryLogWrites} (not part of any contract). */
export const MEMORY_LOG_WRITES: unique symbol = Symbol('awaken.memoryLogWrites');

/** The synchronous writes of `log` when it is a memory event log, else undefined. */
export function memoryLogWrites(log: unknown): MemoryLogWrites | undefined {
  if (typeof log !== 'object' || log === null) return undefined;
  return (log as { [MEMORY_LOG_WRITES]?: MemoryLogWrites })[MEMORY_LOG_WRITES];
}
