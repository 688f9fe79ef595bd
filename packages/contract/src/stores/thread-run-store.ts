import type { z } from 'zod';
import type { MessageRecord, NewMessage } from '../messages/message-record';
import type { Visibility } from '../messages/message';
import type { RunRecord } from '../run/run-record';
import type { RunStatus } from '../run/run-status';
import type { Thread } from '../run/thread';
import type { checkpointTriggerSchema } from './inputs/thread-run-inputs';
import type { Page, PageRequest } from './paging';

/** Why a checkpoint is written (seed 001's triggers). */
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
 *   `not_found`; the run stored under another thread → `conflict` (a checkpoint never moves a run);
 *   run version not the stored one + 1 → `stale_version`; `expectedMessageCount` not the thread's
 *   count → `stale_append`; an illegal RunStatus move → `invalid_transition` (a checkpoint that keeps
 *   the status, several per running step, is always allowed);
 * - `createRun` requires `version: 0` (`validation_failed` otherwise);
 * - thread pointers: `createRun` sets `latestRunId`; a checkpoint of a `running` run sets
 *   `activeRunId`, of a `waiting` run sets `openRunId` (clearing `activeRunId`), of a `done` run clears
 *   both when they point at it;
 * - unknown ids → `null` from getters, `not_found` from writers; creating an existing id → `conflict`;
 * - every record read back passes the contract's zod schema.
 *
 * Input: every operation validates its input with `threadRunStoreInputs` before touching data (a
 * caller's mistake is `validation_failed` naming the field, never `store_failure`, and nothing is
 * written): ids are non-empty well-formed strings, counts and seq bounds integers >= 0, metadata and
 * thread state JSON objects, a checkpoint's `run.threadId` its `threadId`. Values (metadata, message
 * content, run state, thread state) are stored in their JSON form, exactly as `JSON.stringify` writes
 * them (`toJSON` honoured, `undefined` members dropped, `-0` as `0`); BigInt, NaN, ±Infinity, cycles
 * and nesting deeper than 256 are rejected naming their path. What a caller passes or gets back
 * shares nothing with what is stored. Writes are idempotent per request (a re-sent request after a
 * lost reply returns the first reply).
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
  /** Writes a checkpoint atomically; returns the stored run record. */
  commitCheckpoint(checkpoint: Checkpoint): Promise<RunRecord>;
}
