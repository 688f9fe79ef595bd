import type { RunRecord } from '../run/run-record';
import type { RunEventLog } from './run-event-log';
import type { RunLease } from './run-lease';
import type { ThreadRunStore } from './thread-run-store';

/** What {@link AcquireWithFence.acquireRunWithFence} wrote and read, in one atomic step. */
export interface AcquiredWithFence {
  /** The lease, as `acquireRun` grants it. */
  lease: RunLease;
  /** The event log's last seq once its fence was raised to the lease's, as `raiseFence` returns it. */
  lastSeq: number;
  /** The run record under the new lease, as `getRun` would read it right after. */
  run: RunRecord;
}

/**
 * An optional capability of a {@link ThreadRunStore} whose database also holds a {@link RunEventLog}:
 * take a run's lease, raise the event log's fence to it and read the run record in ONE call — one
 * round trip instead of three for an activation that loads a stored run.
 *
 * Guarantees (those of `acquireRun`, then `log.raiseFence(runId, lease.fence)`, then `getRun`, as one
 * atomic step):
 * - `runId`, `owner` and `leaseMs` are checked as `acquireRun` checks them (`validation_failed`
 *   naming the field, nothing written);
 * - an unknown run → `not_found`, a live lease of another holder → `run_busy` (retryable, as
 *   `acquireRun` words it); nothing is written;
 * - a log that has seen a fence higher than the new lease's → `stale_claim`, and nothing is written
 *   (no lease taken either);
 * - otherwise the lease is granted exactly as `acquireRun` grants it (fence one higher, `leaseUntil`
 *   on the store's clock), the log's fence is raised to it, and the reply carries the log's last seq
 *   and the run record as stored at that moment: no write fenced by an earlier lease can land after;
 * - idempotent per request, like every write of the store (a re-sent call after a lost reply answers
 *   the same lease and seq).
 */
export interface AcquireWithFence {
  acquireRunWithFence(runId: string, input: { owner: string; leaseMs: number }): Promise<AcquiredWithFence>;
}

/**
 * A thread-run store offering {@link AcquireWithFence} for an event log it shares a database with:
 * `acquireWithFence(log)` returns the joint acquirer when `log` lives in the same database (and key
 * space) as the store, and `undefined` otherwise, so a runtime given separate stores keeps making the
 * calls one by one.
 */
export interface JointAcquireStore extends ThreadRunStore {
  acquireWithFence(log: RunEventLog): AcquireWithFence | undefined;
}

/** The joint acquirer for `store` and `log`, or undefined when the store offers none for that log. */
export function jointAcquirer(
  store: ThreadRunStore,
  log: RunEventLog | undefined,
): AcquireWithFence | undefined {
  if (!log) return undefined;
  const joint = (store as Partial<JointAcquireStore>).acquireWithFence;
  if (typeof joint !== 'function') return undefined;
  // a wrapper that turns every method into an async one (a recording proxy) offers no acquirer
  const found: unknown = joint.call(store, log);
  return typeof (found as Partial<AcquireWithFence> | undefined)?.acquireRunWithFence === 'function'
    ? (found as AcquireWithFence)
    : undefined;
}
