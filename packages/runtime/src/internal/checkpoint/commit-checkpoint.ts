import {
  type AgentEventInput,
  AwakenError,
  type Checkpoint,
  type CheckpointTrigger,
  type RunRecord,
  type RunWaitingState,
  findJsonIssue,
  formatJsonIssue,
  isTerminalToolCallStatus,
  waitingTicketOf,
} from '@awaken/contract';
import { persistentPluginState } from '../plugins/plugin-host';
import type { RunSession } from '../session/run-session';
import { encodeRunState } from './run-state-codec';
import { toolMessageFor } from './tool-content';

/** Appends tool messages for the longest answered prefix of the batch, in call order. */
export function flushToolMessages(session: RunSession): void {
  for (const state of session.batch.calls) {
    if (state.resultCommitted) continue;
    if (!isTerminalToolCallStatus(state.status)) return;
    session.run.addMessage(toolMessageFor(state), state.step);
    state.resultCommitted = true;
  }
}

type PersistentState = ReturnType<typeof persistentPluginState>;

/**
 * Emits `state_snapshot` when the persistent plugin state (run- and thread-scoped keys) differs from
 * the last snapshot of this activation. The first check of an activation emits whenever the state is
 * non-empty, so hot and cold activations of one run produce the same snapshots. State JSON cannot hold
 * faithfully (NaN, a BigInt, a cycle, …) is `validation_failed` naming the member: nothing of it is
 * logged or stored.
 */
export async function emitStateSnapshotIfChanged(
  session: RunSession,
  persistent: PersistentState = persistentPluginState(session),
): Promise<void> {
  const state = { ...persistent.run, ...(persistent.thread ?? {}) };
  // plugins' own values, stored by the checkpoint: the stores' trusted path checks nothing after this
  const issue = findJsonIssue(state, { path: 'state' });
  if (issue) {
    throw new AwakenError('validation_failed', `plugin state is not JSON: ${formatJsonIssue(issue)}`, {
      details: { field: issue.path },
    });
  }
  const text = JSON.stringify(state);
  const previous = session.events.lastSnapshot;
  session.events.lastSnapshot = text;
  const unchanged = previous === undefined ? Object.keys(state).length === 0 : previous === text;
  if (!unchanged) session.events.post({ type: 'state_snapshot', state });
}

/** The waiting state of a run whose batch has suspended calls. */
export function waitingState(session: RunSession): RunWaitingState | undefined {
  const tickets = session.batch.calls.flatMap((call) => waitingTicketOf(call) ?? []);
  if (tickets.length === 0) return undefined;
  return { reason: 'tool_call_suspended', ticketIds: tickets.map((ticket) => ticket.ticketId), tickets };
}

/**
 * Writes one checkpoint atomically: pending messages, the run record (status, waiting tickets, tool
 * call states, queued decisions, persistent plugin keys) and thread-scoped plugin state.
 */
export interface CheckpointOptions {
  /** Events emitted right after this checkpoint whose seq it already covers (run_finish). */
  eventsAfter?: number;
  /**
   * The run's last events (an `error`, `run_finish`), built once the checkpoint's messages are
   * flushed, and whether the log is finished then: with a joint writer they are written in the
   * checkpoint's own atomic write (see `CheckpointEnd`) and their seqs are covered by it (in place of
   * `eventsAfter`); without one they are not written here (the caller emits them after).
   */
  end?: { events(): AgentEventInput[]; finish: boolean };
  /**
   * Written inside a tool round (a call just suspended while the round goes on): the run is stored
   * `running` even if every call that started so far waits, since the activation still holds it.
   */
  midRound?: boolean;
}

export function commitCheckpoint(
  session: RunSession,
  trigger: CheckpointTrigger,
  options: CheckpointOptions = {},
): Promise<void> {
  // one at a time: each builds its record from the session as it is when its turn comes
  const written = session.run.checkpointing.then(() => writeCheckpoint(session, trigger, options));
  session.run.checkpointing = written.catch(() => {});
  return written;
}

async function writeCheckpoint(
  session: RunSession,
  trigger: CheckpointTrigger,
  options: CheckpointOptions,
): Promise<void> {
  session.activation.throwIfLost();
  flushToolMessages(session);
  // the snapshot shows what this checkpoint stores, and is emitted before the record is built, so its
  // seq is covered by the checkpoint's lastSeq
  const persistent = persistentPluginState(session);
  await emitStateSnapshotIfChanged(session, persistent);
  // every event emitted or posted before the checkpoint is logged before its lastSeq is read (by the
  // checkpoint's own write when the store offers the joint one); a failed posted append fails the
  // checkpoint (nothing after a lost event is stored)
  const { joint } = session;
  const endInputs = joint && options.end ? options.end.events() : undefined;
  const taken = joint ? await session.events.takeForCheckpoint(endInputs) : undefined;
  if (!joint) await session.events.barrier();
  const covered = taken?.events.length ?? 0;
  const after = endInputs ? endInputs.length : (options.eventsAfter ?? 0);
  const now = session.now();
  const { record } = session.run;
  const status = options.midRound && session.run.status === 'waiting' ? 'running' : session.run.status;
  const waiting = status === 'waiting' ? waitingState(session) : undefined;
  const response = status === 'done' ? session.run.lastAssistantText() : record.response;
  const run = {
    ...record,
    status,
    waiting,
    response,
    version: record.version + 1,
    updatedAt: now,
    state: encodeRunState({
      lifecycle: {
        id: record.runId,
        status,
        ...(record.termination ? { doneReason: record.termination } : {}),
        updatedAt: now,
      },
      // only the current batch: earlier calls are answered by committed tool messages
      calls: session.batch.calls,
      pendingDecisions: session.decisions.pending,
      decisionRecords: session.decisions.records,
      bookkeeping: {
        ...session.run.bookkeeping,
        // events emitted right after this checkpoint (run_finish) keep their seq on a cold resume
        lastSeq: session.run.bookkeeping.lastSeq + covered + after,
        decisionIds: [...session.decisions.applied],
      },
      pluginState: persistent.run,
    }),
  };
  if (trigger !== 'user_message' && session.run.pending.length > 0) {
    const from = record.outputRange?.from ?? session.run.committedCount + 1;
    run.outputRange = { from, to: session.run.committedCount + session.run.pending.length };
  }
  if (run.waiting === undefined) delete run.waiting;
  if (run.response === undefined) delete run.response;
  const messages = session.run.pending;
  const threadState = persistent.thread;
  const checkpoint: Checkpoint = {
    trigger,
    threadId: session.threadId,
    expectedMessageCount: session.run.committedCount,
    messages,
    run,
    ...(threadState ? { threadState } : {}),
    fence: session.activation.fence,
  };
  let stored: RunRecord;
  try {
    if (joint && taken) {
      const end = endInputs
        ? { end: { events: taken.end, ...(options.end?.finish ? { finish: {} } : {}) } }
        : {};
      const outcome = await joint
        .commitCheckpointWithEvents(checkpoint, {
          runId: session.runId,
          events: taken.events,
          fence: session.activation.fence,
          ...end,
        })
        .catch((error: unknown) => {
          taken.notLogged();
          throw error;
        });
      // the end's events are delivered only with the checkpoint they follow
      taken.logged({ end: outcome.status === 'committed' });
      if (outcome.status === 'checkpoint_failed') throw outcome.error;
      stored = outcome.run;
    } else {
      stored = await session.services.store.commitCheckpoint(checkpoint);
    }
  } catch (error) {
    throw session.activation.writeFailed(error);
  }
  session.run.record = stored;
  session.run.committedCount += messages.length;
  session.run.pending = [];
}
