import type { AgentEvent } from '../events/agent-event';

/** Options of a fenced write: the writer's run fence (0, the default, for an unfenced writer). */
export interface FencedWrite {
  fence?: number;
}

/**
 * The durable per-run event log that lets any process serve any run's stream.
 *
 * Guarantees: `append` accepts events only with consecutive `seq` continuing the stored last seq
 * (a reused or skipped number → `conflict`, nothing written); `read` returns events with
 * `seq > afterSeq` in order; `tail` returns as soon as at least one such event exists, or an empty
 * array after `waitMs` (or when `signal` aborts); a reader in another process sees every event
 * exactly once and in order. `finish` marks the log finished; it expires `ttlMs` later.
 *
 * Fencing (the classic fencing-token pattern, independent of the thread-run store): each log
 * remembers the highest run fence any write presented. `append`, `finish` and `raiseFence` with a
 * lower fence are rejected with `stale_claim` and write nothing; a higher one becomes the log's fence.
 * A new activation calls `raiseFence` before it reads the last seq, so nothing a fenced-out activation
 * tries to append afterwards can land.
 */
export interface RunEventLog {
  append(runId: string, events: readonly AgentEvent[], options?: FencedWrite): Promise<void>;
  read(runId: string, query?: { afterSeq?: number; limit?: number }): Promise<AgentEvent[]>;
  tail(
    runId: string,
    query: { afterSeq: number; waitMs: number; limit?: number; signal?: AbortSignal },
  ): Promise<AgentEvent[]>;
  /** The last stored seq, 0 when empty. */
  lastSeq(runId: string): Promise<number>;
  finish(runId: string, options?: { ttlMs?: number } & FencedWrite): Promise<void>;
  isFinished(runId: string): Promise<boolean>;
  /**
   * Raises the log's fence to `fence` (a positive integer; `stale_claim` when the log has seen a
   * higher one) and returns the last stored seq, atomically.
   */
  raiseFence(runId: string, fence: number): Promise<number>;
}
