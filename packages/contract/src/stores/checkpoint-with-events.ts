import type { AwakenError } from '../errors/awaken-error';
import type { AgentEvent } from '../events/agent-event';
import type { RunRecord } from '../run/run-record';
import type { RunEventLog } from './run-event-log';
import type { Checkpoint, ThreadRunStore } from './thread-run-store';

/** The events a joint write appends before its checkpoint, as `RunEventLog.append` takes them. */
export interface CheckpointEvents {
  runId: string;
  /** Stamped events with consecutive seqs following the log's last; may be empty. */
  events: readonly AgentEvent[];
  /** The writer's run fence, as `append`'s `FencedWrite.fence`. */
  fence?: number;
  /**
   * The run's last events and the end of its log, written in the same atomic write only when the
   * checkpoint is committed (see {@link CheckpointEnd}).
   */
  end?: CheckpointEnd;
}

/**
 * What a joint write does after a committed checkpoint, in the same atomic write: appends `events`
 * (stamped, consecutive seqs following `CheckpointEvents.events`, or the log's last when those are
 * empty) and, with `finish`, marks the log finished as `RunEventLog.finish` does with the same fence
 * (`ttlMs` as `finish`'s, the log's default when absent). So a reader never sees these events (a
 * run's `run_finish`) for a checkpoint that was not stored, and a finished log has every event.
 *
 * They are checked with the events before anything is written (fence, finished log, consecutive seqs
 * of the run): a refusal throws that error and writes nothing at all. A refused checkpoint
 * (`checkpoint_failed`) writes none of them and leaves the log open.
 */
export interface CheckpointEnd {
  events: readonly AgentEvent[];
  finish?: { ttlMs?: number };
}

/**
 * How a joint write ended when it did not throw: `committed` (events appended, then the checkpoint
 * stored), or `checkpoint_failed` (the events were appended, the checkpoint was refused with
 * `error` and nothing of it was written — as when `append` succeeded and `commitCheckpoint` failed).
 */
export type CheckpointWithEventsOutcome =
  | { status: 'committed'; run: RunRecord }
  | { status: 'checkpoint_failed'; error: AwakenError };

/**
 * An optional capability of a {@link ThreadRunStore} whose database also holds a {@link RunEventLog}:
 * append a run's events and then commit a checkpoint in ONE call (one round trip instead of two).
 *
 * Guarantees (the same as the two calls made one after the other, each atomic):
 * - the events are checked exactly as `append` checks them (fence, finished log, consecutive seqs
 *   from the log's last); when the append is refused it throws that error and writes nothing at
 *   all — neither the events nor the checkpoint;
 * - when the append succeeds the checkpoint is checked exactly as `commitCheckpoint` checks it; a
 *   refused checkpoint resolves `checkpoint_failed` with the events appended and nothing of the
 *   checkpoint written;
 * - a failure of the call itself (a connection lost) throws, and leaves either nothing, the events,
 *   or both written, like the two calls' own failures;
 * - with `end` (see {@link CheckpointEnd}): its events and the log's finish are written only with a
 *   committed checkpoint, in the same atomic write — never without it, never the checkpoint without
 *   them when the write is answered `committed`.
 */
export interface CheckpointWithEvents {
  commitCheckpointWithEvents(
    checkpoint: Checkpoint,
    events: CheckpointEvents,
  ): Promise<CheckpointWithEventsOutcome>;
}

/**
 * A thread-run store offering {@link CheckpointWithEvents} for an event log it shares a database
 * with: `checkpointWithEvents(log)` returns the joint writer when `log` lives in the same database
 * (and key space) as the store, and `undefined` otherwise, so a runtime given separate stores keeps
 * making the two calls.
 */
export interface JointCheckpointStore extends ThreadRunStore {
  checkpointWithEvents(log: RunEventLog): CheckpointWithEvents | undefined;
}

/**
 * The joint writer for `store` and `log`, or undefined when the store offers none for that log (or
 * answers with anything but a writer — a wrapper that made every method async, say).
 */
export function jointCheckpointWriter(
  store: ThreadRunStore,
  log: RunEventLog | undefined,
): CheckpointWithEvents | undefined {
  if (!log) return undefined;
  const joint = (store as Partial<JointCheckpointStore>).checkpointWithEvents;
  const writer: unknown = typeof joint === 'function' ? joint.call(store, log) : undefined;
  const usable =
    typeof writer === 'object' &&
    writer !== null &&
    typeof (writer as Partial<CheckpointWithEvents>).commitCheckpointWithEvents === 'function';
  return usable ? (writer as CheckpointWithEvents) : undefined;
}
