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
 * Guarantees every implementation passes (store-conformance, and a differential test that feeds
 * random operation sequences to two backends and requires the same answers):
 * - `enqueue` is durable before it resolves and stamps the thread's current dispatch epoch; a
 *   `dedupeKey` equal to that of a non-terminal dispatch of the same thread → `dedupe_conflict`
 *   (thread and key are compared as a pair: no characters in ids can make two pairs collide);
 * - `claim` hands each queued dispatch whose `availableAt <= now` to exactly one caller, in priority
 *   (0 first) then enqueue order, with `leaseUntil = now + leaseMs`, and never more than one claimed
 *   dispatch per thread; `claimDispatch` ignores `availableAt` but keeps the one-per-thread rule;
 * - fencing: `ack`, `nack`, `deadLetter`, `extendLease`, `recordDispatchStart` and `recordRunResult`
 *   succeed only for the current claim token, while the lease is held (now <= leaseUntil) and while the
 *   dispatch epoch equals the thread's epoch; otherwise `stale_claim` and nothing is written;
 * - claim fields: `claimToken` and `leaseUntil` exist only while a dispatch is `claimed`; every move
 *   out of a claim (ack, nack, dead letter, supersede, reclaim) removes both, and `claimedBy` keeps
 *   naming the worker of the latest claim (for audit) until the next claim replaces it;
 * - `nack` increments `attemptCount` and records `error` as `lastError` (as given, `''` included),
 *   then requeues at `retryAt` or dead-letters once `maxAttempts` attempts were made;
 *   `reclaimExpiredLeases` treats a lease as expired only when `now > leaseUntil`, takes the earliest
 *   deadlines first (equal deadlines in enqueue order), at most `limit` (default 100) per call, counts the
 *   attempt, sets `lastError` to `lease of <claimedBy> expired`, requeues / dead-letters / supersedes
 *   (stale epoch) and is safe under concurrent sweepers (each dispatch reclaimed once);
 * - `recordRunResult` replaces the previous projection completely: a field the new result lacks
 *   (`termination`, `response`, `error`) is removed;
 * - `interrupt` atomically bumps the thread epoch, supersedes every queued dispatch of the thread and
 *   returns the active claim (to be cancelled by the caller) and the count;
 * - `cancel` works only on queued dispatches (`conflict` otherwise); unknown ids → `not_found`;
 * - `markRequeued` works only on dead letters (`conflict` otherwise) and sets `requeuedRunId` /
 *   `requeuedDispatchId` at most once: a dead letter already marked is returned unchanged, so
 *   concurrent requeues agree on one new run.
 *
 * Input: every operation validates its input with `mailboxStoreInputs` before touching data;
 * a caller's mistake is `validation_failed` naming the field, never a retryable `store_failure`, and
 * nothing is written. Ids (dispatch, thread, run, worker, claim token, dedupe key) are non-empty
 * well-formed strings; `limit` and `leaseMs` are integers >= 1 (fractions are rejected, never rounded);
 * `retryAt`, `availableAt` and `olderThan` are millisecond times (integers >= 0); `-0` counts as `0`; a
 * lease whose deadline would not be a safe integer is rejected. Listings take a `limit` >= 1 (50 by
 * default, more than 1000 served as 1000), a `cursor` they returned, and a non-empty status filter.
 *
 * Retries are safe: a backend whose client may re-send a request after a lost reply (Redis) makes
 * every mutating operation idempotent per request, so a repeat returns the first reply.
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
  /**
   * Enqueues a dispatch (exactly as `enqueue`: same checks, same epoch) and, when its thread has no
   * claim, claims it for `workerId` in the same atomic step, as `claimDispatch` would (ignoring
   * `availableAt`); with `dispatchInstanceId` the start is recorded too, as `recordDispatchStart`
   * would. A dispatch claimed here wakes no `waitForWork` caller (its claimer runs it). When the thread
   * has a claim the dispatch stays queued, exactly as `enqueue` leaves it. Returns the dispatch,
   * `claimed` (with its `claimToken`) or `queued`. For a caller about to run the dispatch itself: one
   * write instead of enqueue, claimDispatch and recordDispatchStart.
   */
  enqueueAndClaim(
    input: EnqueueDispatchInput & { workerId: string; leaseMs: number; dispatchInstanceId?: string },
  ): Promise<RunDispatch>;
  /**
   * Acks a claimed dispatch. With `result`, records it first, fenced by the same check in the same
   * atomic step, exactly as `recordRunResult` then `ack` would (a result whose `runId` is not the
   * dispatch's → `validation_failed`, and nothing is written).
   */
  ack(proof: ClaimProof & { result?: RunDispatchResult }): Promise<RunDispatch>;
  /** Back to queued at `retryAt` (default now) with attempt + 1, or dead letter when attempts run out. */
  nack(proof: ClaimProof & { error: string; retryAt?: number }): Promise<RunDispatch>;
  deadLetter(proof: ClaimProof & { error: string }): Promise<RunDispatch>;
  cancel(dispatchId: string): Promise<RunDispatch>;
  /**
   * Reserves the run a dead letter is requeued as (atomically, once): returns the dead letter with
   * `requeuedRunId` / `requeuedDispatchId` — the given ids, or those of an earlier requeue.
   */
  markRequeued(input: { dispatchId: string; runId: string; requeueDispatchId: string }): Promise<RunDispatch>;
  extendLease(proof: ClaimProof & { leaseMs: number }): Promise<RunDispatch>;
  interrupt(threadId: string): Promise<MailboxInterrupt>;
  /** Supersedes a claimed dispatch whose epoch is older than its thread's (after `interrupt`). */
  supersedeClaimed(dispatchId: string): Promise<RunDispatch>;
  recordDispatchStart(proof: ClaimProof & { dispatchInstanceId: string }): Promise<RunDispatch>;
  recordRunResult(proof: ClaimProof & { result: RunDispatchResult }): Promise<RunDispatch>;
  loadDispatch(dispatchId: string): Promise<RunDispatch | null>;
  /** Dispatches of a thread, oldest first (enqueue order), optionally filtered by status. */
  listDispatches(
    threadId: string,
    query?: PageRequest & { status?: RunDispatchStatus[] },
  ): Promise<Page<RunDispatch>>;
  /**
   * How many dispatches of the store (every thread) have each status now: every status is a key,
   * `0` when none has it. Served from a status index the store keeps on every status change (never
   * by reading dispatches); the counts of one call are one consistent reading.
   */
  countDispatches(): Promise<Record<RunDispatchStatus, number>>;
  /**
   * Dispatches of every thread that have `status` now, newest first (reverse enqueue order), in
   * pages. Served from the same status index, so a page never reads dispatches of other statuses: this
   * is how a console lists dead letters without one request per thread. A page reflects each
   * dispatch's status when it was read; a dispatch whose status changed between two pages may be
   * missed or seen once more, never twice in one page.
   */
  listDispatchesByStatus(status: RunDispatchStatus, page?: PageRequest): Promise<Page<RunDispatch>>;
  /** The thread's current dispatch epoch (0 for a thread never seen). */
  threadEpoch(threadId: string): Promise<number>;
  reclaimExpiredLeases(input?: { limit?: number }): Promise<RunDispatch[]>;
  /**
   * Deletes terminal dispatches whose `updatedAt` is before `olderThan` — with `status`, only those
   * of the statuses named (each a terminal status: naming `queued` or `claimed` is
   * `validation_failed`); returns how many.
   */
  purgeTerminal(input: { olderThan: number; status?: RunDispatchStatus[] }): Promise<number>;
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
