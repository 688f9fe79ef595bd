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
 * - every record read back passes the contract's zod schema.
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
}
