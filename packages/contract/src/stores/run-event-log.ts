import type { AgentEvent } from '../events/agent-event';

/**
 * The durable per-run event log that lets any process serve any run's stream.
 *
 * Guarantees: `append` accepts events only with consecutive `seq` continuing the stored last seq
 * (a reused or skipped number → `conflict`, nothing written); `read` returns events with
 * `seq > afterSeq` in order; `tail` returns as soon as at least one such event exists, or an empty
 * array after `waitMs` (or when `signal` aborts); a reader in another process sees every event
 * exactly once and in order. `finish` marks the log finished; it expires `ttlMs` later.
 */
export interface RunEventLog {
  append(runId: string, events: readonly AgentEvent[]): Promise<void>;
  read(runId: string, query?: { afterSeq?: number; limit?: number }): Promise<AgentEvent[]>;
  tail(
    runId: string,
    query: { afterSeq: number; waitMs: number; limit?: number; signal?: AbortSignal },
  ): Promise<AgentEvent[]>;
  /** The last stored seq, 0 when empty. */
  lastSeq(runId: string): Promise<number>;
  finish(runId: string, options?: { ttlMs?: number }): Promise<void>;
  isFinished(runId: string): Promise<boolean>;
}
