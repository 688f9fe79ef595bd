import type { MessageRecord, NewMessage } from '../messages/message-record';
import type { Visibility } from '../messages/message';
import type { RunRecord } from '../run/run-record';
import type { RunStatus } from '../run/run-status';
import type { Thread } from '../run/thread';
import type { Page, PageRequest } from './paging';
import type { RunLease, RunLeaseProof } from './run-lease';

/** Why a checkpoint is written: the loop's checkpoint triggers. */
export type CheckpointTrigger =
  | 'user_message'
  | 'assistant_turn_committed'
  | 'tool_results_committed'
  | 'run_finished';

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

export interface CreateThreadInput {
  id?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Threads, their append-only message logs, run records and checkpoints.
 *
 * Guarantees every implementation passes (store-conformance):
 * - message `seq` is 1-based and dense per thread; `appendMessages` with an `expectedLength` that is
 *   not the current length fails with `stale_append` and writes nothing;
 * - `commitCheckpoint` is atomic: the message delta, the run record and the thread pointers are all
 *   written or none is; a stale `expectedMessageCount` → `stale_append`, a stale run version →
 *   `stale_version`; a status change must be a legal RunStatus transition (`invalid_transition`),
 *   while a checkpoint that keeps the status (several per running step) is always allowed;
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
 *   with the current fence (`stale_claim` otherwise). Invalid input → `validation_failed`.
 */
export interface ThreadRunStore {
  createThread(input: CreateThreadInput): Promise<Thread>;
  getThread(threadId: string): Promise<Thread | null>;
  listThreads(page?: PageRequest): Promise<Page<Thread>>;
  /** Deletes the thread, its messages and its runs. Returns false if it did not exist. */
  deleteThread(threadId: string): Promise<boolean>;
  updateThreadMetadata(threadId: string, metadata: Record<string, unknown>): Promise<Thread>;
  /** Thread-scoped persistent plugin state, `{}` when none. */
  getThreadState(threadId: string): Promise<Record<string, unknown>>;

  appendMessages(
    threadId: string,
    input: { expectedLength: number; messages: NewMessage[] },
  ): Promise<MessageRecord[]>;
  /** Messages with `from <= seq <= to` (defaults: whole log), optionally of one visibility, in seq order. */
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
  /** Writes a checkpoint atomically; returns the stored run record. */
  commitCheckpoint(checkpoint: Checkpoint): Promise<RunRecord>;

  /** Takes the run for one activation: `run_busy` while another lease is live, `not_found` for an unknown run. */
  acquireRun(runId: string, input: { owner: string; leaseMs: number }): Promise<RunLease>;
  /** Extends a held lease to `now + leaseMs`; `stale_claim` when the run was taken over or released. */
  renewRun(proof: RunLeaseProof & { leaseMs: number }): Promise<RunLease>;
  /** Ends a lease early. Resolves `false` (and changes nothing) when the proof no longer holds the run. */
  releaseRun(proof: RunLeaseProof): Promise<boolean>;
}
