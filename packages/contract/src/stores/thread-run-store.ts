import type { z } from 'zod';
import type { MessageRecord, NewMessage } from '../messages/message-record';
import type { Visibility } from '../messages/message';
import type { RunRecord } from '../run/run-record';
import type { RunStatus } from '../run/run-status';
import type { Thread } from '../run/thread';
import type { checkpointTriggerSchema } from './inputs/thread-run-inputs';
import type { Page, PageRequest } from './paging';
import type { RunLease, RunLeaseProof } from './run-lease';

/** Why a checkpoint is written: the loop's checkpoint triggers. */
export type CheckpointTrigger = z.infer<typeof checkpointTriggerSchema>;

/**
 * One atomic step of a run's durable progress: the new thread messages, the run projection (status,
 * waiting tickets, tool call states under `state`, persistent plugin keys) and the thread pointers.
 */
export interface Checkpoint {
  trigger: CheckpointTrigger;
  threadId: string;
  /** The thread's message count the writer saw; a different count rejects the checkpoint. */
  expectedMessageCount: number;
  messages: NewMessage[];
  /** The run record to store; its `version` must be the stored version + 1. */
  run: RunRecord;
  /** Thread-scoped persistent plugin state to store with the thread (replaces the whole map). */
  threadState?: Record<string, unknown>;
  /**
   * The writer's fence (its lease's `fence`; default 0, which matches only a run never acquired).
   * A fence other than the run's current one is rejected with `stale_claim`, before anything else.
   */
  fence?: number;
}

/**
 * The order of `listThreads`: `oldest` (the default) is creation order, oldest first; `newest` is
 * the thread written last first — created, its metadata replaced, a message appended, a run created
 * or checkpointed (every write that moves `updatedAt`).
 */
export type ThreadOrder = 'oldest' | 'newest';

/** A page of threads in one order. */
export interface ThreadListRequest extends PageRequest {
  order?: ThreadOrder;
}

export interface CreateThreadInput {
  id?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Threads, their append-only message logs, run records and checkpoints.
 *
 * Guarantees every implementation passes (store-conformance and the differential test):
 * - message `seq` is 1-based and dense per thread; `appendMessages` with an `expectedLength` that is
 *   not the current length fails with `stale_append` and writes nothing; an append moves the thread's
 *   `updatedAt`; a batch of any size is written whole (a 50,000-message checkpoint included);
 * - `readMessages` bounds are inclusive and clipped to the log: `from` defaults to 1 (0 reads from 1),
 *   `to` to the last seq; `to < from` (also `to: 0`) reads nothing;
 * - `commitCheckpoint` is atomic: the message delta, the run record and the thread pointers are all
 *   written or none is. Its checks, in this order: thread unknown → `not_found`; run unknown →
 *   `not_found`; a fence other than the run's current one → `stale_claim`; the run stored under
 *   another thread → `conflict` (a checkpoint never moves a run); run version not the stored one + 1 →
 *   `stale_version`; `expectedMessageCount` not the thread's count → `stale_append`; an illegal
 *   RunStatus move → `invalid_transition` (a checkpoint that keeps the status, several per running
 *   step, is always allowed);
 * - `createRun` requires `version: 0` (`validation_failed` otherwise);
 * - `title`: the first append (`appendMessages` or a checkpoint) holding an external user message
 *   with text sets the thread's `title` to `threadTitleOf(messages)`; nothing changes it after;
 * - thread pointers: `createRun` sets `latestRunId`; a checkpoint of a `running` run sets
 *   `activeRunId`, of a `waiting` run sets `openRunId` (clearing `activeRunId`), of a `done` run clears
 *   both when they point at it;
 * - unknown ids → `null` from getters, `not_found` from writers; creating an existing id → `conflict`;
 * - every record read back passes the contract's zod schema;
 * - run ownership (one activation per run across every process sharing the store): `acquireRun`
 *   grants a lease of `leaseMs` on the **store's** clock and a fence one higher than any fence the run
 *   had, and is refused with `run_busy` (retryable, `retryAfterMs` until the lease ends) while another
 *   lease of the run is live (`now <= leaseUntil`); `renewRun` extends a lease while its fence is the
 *   current one and it was not released (also after it lapsed, if nobody took the run meanwhile),
 *   otherwise `stale_claim`; `releaseRun` ends it early (the fence stays, so the next acquisition
 *   still gets a higher one) and reports whether it was still held; `commitCheckpoint` writes only
 *   with the current fence (`stale_claim` otherwise).
 *
 * Input: every operation validates its input with `threadRunStoreInputs` before touching data (a
 * caller's mistake is `validation_failed` naming the field, never `store_failure`, and nothing is
 * written): ids and owners are non-empty well-formed strings, counts, seq bounds and fences integers
 * >= 0 (a lease proof's fence >= 1), `leaseMs` 1 to `MAX_RUN_LEASE_MS`, metadata and thread state JSON
 * objects, a checkpoint's `run.threadId` its `threadId`. Values (metadata, message content, run
 * state, thread state) are stored in their JSON form, exactly as `JSON.stringify` writes them
 * (`toJSON` honoured, `undefined` members dropped, `-0` as `0`); what JSON cannot hold faithfully
 * (see `findJsonIssue`) is rejected naming its path. What a caller passes or gets back shares nothing
 * with what is stored. Writes are idempotent per request (a request re-sent after a lost reply
 * returns the first reply).
 */
export interface ThreadRunStore {
  createThread(input: CreateThreadInput): Promise<Thread>;
  getThread(threadId: string): Promise<Thread | null>;
  /**
   * Threads in pages, oldest first, or with `order: 'newest'` the thread written last first (a
   * console's thread list). Each order is served from an index the store keeps on every write, so a
   * page reads only its threads. In the `newest` order a thread written between two pages moves to
   * the front: it may be missed by the pages that follow or seen once more, never twice in one page.
   */
  listThreads(page?: ThreadListRequest): Promise<Page<Thread>>;
  /** Deletes the thread, its messages and its runs. Returns false if it did not exist. */
  deleteThread(threadId: string): Promise<boolean>;
  updateThreadMetadata(threadId: string, metadata: Record<string, unknown>): Promise<Thread>;
  /** Thread-scoped persistent plugin state, `{}` when none. */
  getThreadState(threadId: string): Promise<Record<string, unknown>>;

  appendMessages(
    threadId: string,
    input: { expectedLength: number; messages: NewMessage[] },
  ): Promise<MessageRecord[]>;
  /** Messages with `from <= seq <= to` (defaults: whole log; clipped to it), optionally of one visibility, in seq order. */
  readMessages(
    threadId: string,
    range?: { from?: number; to?: number; visibility?: Visibility },
  ): Promise<MessageRecord[]>;
  messageCount(threadId: string): Promise<number>;

  /** Creates a run (version 0). The thread must exist. Sets the thread's `latestRunId`. */
  createRun(record: RunRecord): Promise<RunRecord>;
  getRun(runId: string): Promise<RunRecord | null>;
  /** Runs of a thread, newest first, optionally filtered by status. */
  listRuns(threadId: string, query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>>;
  /**
   * Runs of every thread of the store that have `status` now, newest first (the order runs were
   * created), in pages. Served from an index the store keeps on every status change (a checkpoint
   * moving the run, `deleteThread` removing it), so a page never reads runs of other statuses: this
   * is how a console lists every waiting run (and its tickets) without scanning all runs. A page
   * reflects each run's status when it was read; a run whose status changed between two pages may be
   * missed or seen once more, never twice in one page.
   */
  listRunsByStatus(status: RunStatus, page?: PageRequest): Promise<Page<RunRecord>>;
  /**
   * Runs of every thread of the store, newest first (the order runs were created), in pages;
   * with `status`, only the runs that have one of those statuses now. Served from the same status
   * index as `listRunsByStatus` (a page reads the runs it returns, and one past them, never others),
   * with the same guarantees across pages: a run whose status changed between two pages may be
   * missed or seen once more, never twice in one page. This is the console's runs list.
   */
  listAllRuns(query?: PageRequest & { status?: RunStatus[] }): Promise<Page<RunRecord>>;
  /** Writes a checkpoint atomically; returns the stored run record. */
  commitCheckpoint(checkpoint: Checkpoint): Promise<RunRecord>;

  /** Takes the run for one activation: `run_busy` while another lease is live, `not_found` for an unknown run. */
  acquireRun(runId: string, input: { owner: string; leaseMs: number }): Promise<RunLease>;
  /** Extends a held lease to `now + leaseMs`; `stale_claim` when the run was taken over or released. */
  renewRun(proof: RunLeaseProof & { leaseMs: number }): Promise<RunLease>;
  /** Ends a lease early. Resolves `false` (and changes nothing) when the proof no longer holds the run. */
  releaseRun(proof: RunLeaseProof): Promise<boolean>;
}
