import type {
  EnqueueDispatchInput,
  MailboxInterrupt,
  RunDispatch,
  RunDispatchResult,
  RunDispatchStatus,
} from '../mailbox/run-dispatch';
import type { Page, PageRequest } from './paging';

/** Proof of a claim: every claimant write presents it and is fenced by it. */
export interface ClaimProof {
  dispatchId: string;
  claimToken: string;
}

/**
 * The durable run queue. Times are milliseconds on the **store's** clock (`now()`);
 * leases are computed from it, never from a caller's clock.
 *
 * Guarantees every implementation passes (store-conformance):
 * - `enqueue` is durable before it resolves and stamps the thread's current dispatch epoch; a
 *   `dedupeKey` equal to that of a non-terminal dispatch of the same thread → `dedupe_conflict`;
 * - `claim` hands each queued dispatch whose `availableAt <= now` to exactly one caller, in priority
 *   (0 first) then age order, with `leaseUntil = now + leaseMs`, and never more than one claimed
 *   dispatch per thread; `claimDispatch` ignores `availableAt` but keeps the one-per-thread rule;
 * - fencing: `ack`, `nack`, `deadLetter`, `extendLease`, `recordDispatchStart` and `recordRunResult`
 *   succeed only for the current claim token, while the lease is held (now <= leaseUntil) and while the
 *   dispatch epoch equals the thread's epoch; otherwise `stale_claim` and nothing is written;
 * - `nack` increments `attemptCount`, and requeues at `retryAt` or dead-letters once `maxAttempts`
 *   attempts were made; `reclaimExpiredLeases` treats a lease as expired only when
 *   `now > leaseUntil`, counts the attempt, requeues / dead-letters / supersedes (stale epoch) and is
 *   safe under concurrent sweepers (each dispatch reclaimed once);
 * - `interrupt` atomically bumps the thread epoch, supersedes every queued dispatch of the thread and
 *   returns the active claim (to be cancelled by the caller) and the count;
 * - `cancel` works only on queued dispatches (`conflict` otherwise); unknown ids → `not_found`.
 */
export interface MailboxStore {
  /** The store's clock, in milliseconds since the epoch. */
  now(): Promise<number>;
  enqueue(input: EnqueueDispatchInput): Promise<RunDispatch>;
  claim(input: { workerId: string; limit: number; leaseMs: number }): Promise<RunDispatch[]>;
  /** Claims one dispatch by id (inline streaming). Returns null when it is not queued or its thread has a claim. */
  claimDispatch(input: {
    dispatchId: string;
    workerId: string;
    leaseMs: number;
  }): Promise<RunDispatch | null>;
  ack(proof: ClaimProof): Promise<RunDispatch>;
  /** Back to queued at `retryAt` (default now) with attempt + 1, or dead letter when attempts run out. */
  nack(proof: ClaimProof & { error: string; retryAt?: number }): Promise<RunDispatch>;
  deadLetter(proof: ClaimProof & { error: string }): Promise<RunDispatch>;
  cancel(dispatchId: string): Promise<RunDispatch>;
  extendLease(proof: ClaimProof & { leaseMs: number }): Promise<RunDispatch>;
  interrupt(threadId: string): Promise<MailboxInterrupt>;
  /** Supersedes a claimed dispatch whose epoch is older than its thread's (after `interrupt`). */
  supersedeClaimed(dispatchId: string): Promise<RunDispatch>;
  recordDispatchStart(proof: ClaimProof & { dispatchInstanceId: string }): Promise<RunDispatch>;
  recordRunResult(proof: ClaimProof & { result: RunDispatchResult }): Promise<RunDispatch>;
  loadDispatch(dispatchId: string): Promise<RunDispatch | null>;
  /** Dispatches of a thread, oldest first, optionally filtered by status. */
  listDispatches(
    threadId: string,
    query?: PageRequest & { status?: RunDispatchStatus[] },
  ): Promise<Page<RunDispatch>>;
  /** The thread's current dispatch epoch (0 for a thread never seen). */
  threadEpoch(threadId: string): Promise<number>;
  reclaimExpiredLeases(input?: { limit?: number }): Promise<RunDispatch[]>;
  /** Deletes terminal dispatches whose `updatedAt` is before `olderThan`; returns how many. */
  purgeTerminal(input: { olderThan: number }): Promise<number>;
  /**
   * Waits until a dispatch may have become claimable, so an idle worker need not poll `claim`.
   *
   * Resolves `true` soon after an `enqueue`, a `nack` that requeues, a `reclaimExpiredLeases` that
   * requeues, or the end of a claim that frees a thread with queued work — from this client or any
   * other client of the same store — and `false` once `timeoutMs` has passed or `signal` aborted
   * (an abort resolves promptly, it never rejects). Typical loop: `claim`; when it comes back empty,
   * `await waitForWork({ timeoutMs })`, then `claim` again whatever the result.
   *
   * - Spurious wake-ups are allowed: `true` is a hint, the next `claim` may find nothing (another
   *   worker won it, or it was cancelled or interrupted meanwhile).
   * - Lost wake-ups are not: a dispatch enqueued (or requeued) after the call started wakes it, or,
   *   when several calls wait on the same store at once, at least one of them per dispatch
   *   (competing workers: the one woken claims). Work that became claimable after the caller's last
   *   empty `claim` but before this call may also make it return `true` at once.
   * - Delayed dispatches (`availableAt` in the future, also a `nack` with a later `retryAt`) wake
   *   nobody when they fall due: use a `timeoutMs` no longer than the delay you accept for them.
   */
  waitForWork(options: { timeoutMs: number; signal?: AbortSignal }): Promise<boolean>;
}
