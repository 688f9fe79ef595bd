import type { RunRecord } from '../run/run-record';
import type { RunLease } from './run-lease';
import type { ThreadRunStore } from './thread-run-store';

/** What {@link RunCreationWithLease.createRunWithLease} takes besides the run record. */
export interface CreateRunWithLeaseInput {
  /** Who takes the run's first lease (as `acquireRun`'s `owner`). */
  owner: string;
  /** The lease's length in store-clock milliseconds (as `acquireRun`'s `leaseMs`). */
  leaseMs: number;
  /** Creates the run's thread (empty metadata) when it does not exist; otherwise it must exist. */
  createThread?: boolean;
}

/** What a joint creation wrote: the run, its first lease, and whether the thread was created too. */
export interface CreatedRunWithLease {
  run: RunRecord;
  lease: RunLease;
  /** True when the call created the thread: it holds no message and no state yet. */
  threadCreated: boolean;
}

/**
 * An optional capability of a {@link ThreadRunStore}: create a run and take its first lease in ONE
 * call — one round trip instead of two (three when the thread is new) — for an activation that
 * starts the run it creates.
 *
 * Guarantees (those of `createThread`, `createRun` and `acquireRun` made one after the other, as one
 * atomic step):
 * - the record is checked as `createRun` checks it, `owner` and `leaseMs` as `acquireRun` checks them
 *   (`validation_failed` naming the field, nothing written);
 * - a missing thread without `createThread` → `not_found`; an existing run → `conflict`; either way
 *   nothing is written (no thread created either);
 * - with `createThread`, a missing thread is created first (`threadCreated: true`), an existing one is
 *   used as is;
 * - the run is stored as `createRun` stores it (the thread's `latestRunId` set) and holds the lease
 *   `acquireRun` would grant it right after: fence 1, `leaseUntil` = the store's now + `leaseMs`; so
 *   `acquireRun` by anyone else is `run_busy` until then, and `renewRun`, `releaseRun` and fenced
 *   checkpoints take the lease as any other;
 * - idempotent per request, like every write of the store.
 */
export interface RunCreationWithLease {
  createRunWithLease(record: RunRecord, input: CreateRunWithLeaseInput): Promise<CreatedRunWithLease>;
}

/** `store`'s joint creation, or undefined when the store does not offer it. */
export function runCreationWithLease(store: ThreadRunStore): RunCreationWithLease | undefined {
  const create = (store as Partial<RunCreationWithLease>).createRunWithLease;
  return typeof create === 'function'
    ? { createRunWithLease: (record, input) => create.call(store, record, input) }
    : undefined;
}
