import type { AgentEvent } from '../events/agent-event';

/** Options of a fenced write: the writer's run fence (0, the default, for an unfenced writer). */
export interface FencedWrite {
  fence?: number;
}

/**
 * The durable per-run event log that lets any process serve any run's stream.
 *
 * Guarantees: `append` accepts events only with consecutive `seq` continuing the stored last seq
 * (a reused or skipped number, or an event of another run → `conflict`, nothing written), and none
 * once the log is finished (`conflict`); `read` returns events with `seq > afterSeq` in order, at most
 * `limit`; `tail` returns as soon as at least one such event exists (at most `limit`, also when a large
 * append wakes it, so a reader pages through a burst; every waiting tail of the run wakes), or an
 * empty array after `waitMs` (or when `signal` aborts). For a finished log `tail` returns at once, and an empty array only when
 * nothing after `afterSeq` exists: a `[]` from a finished log means the stream is over (a tail that
 * started before the finish sees the events appended before it). A reader in another process sees
 * every event exactly once and in order. `finish` marks the log finished; it expires `ttlMs` later
 * (rounded up to whole milliseconds; 0 drops it at once; default `DEFAULT_FINISHED_LOG_TTL_MS`, one
 * hour), and so does the run's control inbox when the two share a backend (`create*Stores`); a
 * `finish` again resets the expiry.
 *
 * Fencing (the classic fencing-token pattern, independent of the thread-run store): each log
 * remembers the highest run fence any write presented. `append` (also of no events), `finish` and
 * `raiseFence` with a lower fence are rejected with `stale_claim` and write nothing; a higher one
 * becomes the log's fence. A new activation calls `raiseFence` before it reads the last seq, so
 * nothing a fenced-out activation tries to append afterwards can land.
 *
 * Input (validated by `runEventLogInputs`, `validation_failed` naming the field): run ids are
 * non-empty well-formed strings, `afterSeq` and fences integers >= 0 (`raiseFence`'s >= 1), `limit` an
 * integer >= 1, `waitMs` from 0 to 2^31 - 1, events valid `AgentEvent`s whose values are stored in
 * their JSON form (see ThreadRunStore). Appends, finishes and fence raises are idempotent per request.
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
