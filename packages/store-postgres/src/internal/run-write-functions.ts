import {
  type AgentEvent,
  AwakenError,
  type Checkpoint,
  type RunRecord,
  type RunStatus,
  canTransitionRunStatus,
  runStatusSchema,
  threadTitleOf,
} from '@awaken/contract';
import { expectLength } from './checkpoint-checks';
import { conflict, notFound } from './errors';
import type { FunctionCall, SqlValue } from './function-call';
import { key, payloadOf } from './keys';
import { staleRunClaim } from './run-lease';

/**
 * The calls of the run-write functions (migration 6) and the decoding of their replies: a refusal
 * (`!` + JSON, or `?` + JSON for a checkpoint refused after its events were written) becomes the
 * AwakenError the TypeScript path raised (same codes, messages and details).
 */

const json = JSON.stringify;

/** An append's events, as `RunEventLog.append` takes them (parsed). */
export interface EventsToAppend {
  runId: string;
  events: readonly AgentEvent[];
  fence: number;
}

/** The statuses a run may move to `to` from. */
const fromStatuses = (to: RunStatus): string[] =>
  runStatusSchema.options.filter((from) => canTransitionRunStatus(from, to));

const NO_EVENTS: SqlValue[] = [null, null, null, null, null];
const NO_CHECKPOINT: SqlValue[] = Array.from({ length: 13 }, () => null);

function eventArgs(given: EventsToAppend): SqlValue[] {
  const { runId, events } = given;
  const first = events[0]?.seq ?? 0;
  const bad = events.findIndex((event, index) => event.runId !== runId || event.seq !== first + index);
  return [key(runId), given.fence, first, bad < 0 ? null : bad, events.map((event) => json(event))];
}

function checkpointArgs(checkpoint: Checkpoint): SqlValue[] {
  const { run, threadId, expectedMessageCount: expected } = checkpoint;
  const docs = checkpoint.messages.map((message, index) => {
    const record = json({ ...message, threadId, seq: expected + index + 1 });
    return record;
  });
  const title = threadTitleOf(checkpoint.messages);
  return [
    key(threadId),
    key(run.runId),
    json(run.runId),
    checkpoint.fence ?? 0,
    expected,
    run.version,
    run.status,
    fromStatuses(run.status),
    json(run),
    checkpoint.messages.map((message) => message.visibility),
    docs,
    title === undefined ? null : json(title),
    checkpoint.threadState === undefined ? null : json(checkpoint.threadState),
  ];
}

/** One call of `tr_write`: events appended, then a checkpoint committed; either may be absent. */
export function runWriteCall(
  channel: string,
  events: EventsToAppend | undefined,
  checkpoint: Checkpoint | undefined,
): FunctionCall {
  return {
    fn: 'tr_write',
    args: [
      channel,
      events === undefined ? null : payloadOf(key(events.runId)),
      ...(events === undefined ? NO_EVENTS : eventArgs(events)),
      ...(checkpoint === undefined ? NO_CHECKPOINT : checkpointArgs(checkpoint)),
    ],
  };
}

/**
 * One call of `tr_write_end` (migration 12): `events` (the events before the checkpoint, then the
 * run's last `endCount` events, as one append), the checkpoint, and the log's finish when `finish`
 * is given. Answered as `tr_write` answers (`runWriteReply` with the same `events`).
 */
export function runWriteEndCall(
  channel: string,
  events: EventsToAppend,
  endCount: number,
  checkpoint: Checkpoint,
  finish: { ttlMs: number; sweep: boolean } | undefined,
): FunctionCall {
  return {
    fn: 'tr_write_end',
    args: [
      ...runWriteCall(channel, events, checkpoint).args,
      endCount,
      finish !== undefined,
      finish?.ttlMs ?? 0,
      finish?.sweep ?? false,
    ],
  };
}

/** The error of an append refused by `ev_append`. */
export function appendRefusal(refusal: Record<string, unknown>, given: EventsToAppend): AwakenError {
  const { runId } = given;
  if (refusal.code === 'stale_fence') {
    const fence = Number(refusal.fence);
    return new AwakenError(
      'stale_claim',
      `the event log of run ${runId} is at fence ${fence}, the writer has ${given.fence}`,
      { details: { runId, fence, given: given.fence } },
    );
  }
  if (refusal.code === 'finished') return conflict(`the event log of run ${runId} is finished`);
  if (refusal.code === 'seq') {
    const expected = Number(refusal.expected);
    const event = given.events[Number(refusal.index)];
    return new AwakenError(
      'conflict',
      `run ${runId} expects event seq ${expected}, got seq ${event?.seq} of run ${event?.runId}`,
      { details: { runId, expected, given: event?.seq } },
    );
  }
  return new AwakenError('store_failure', `postgres: an unknown refusal ${json(refusal)}`);
}

/** The error of a checkpoint refused by `tr_checkpoint_at`, in the contract's order of checks. */
export function checkpointRefusal(refusal: Record<string, unknown>, checkpoint: Checkpoint): AwakenError {
  const { run, threadId } = checkpoint;
  switch (refusal.code) {
    case 'no_thread':
      return notFound('thread', threadId);
    case 'no_run':
      return notFound('run', run.runId);
    case 'stale_fence':
      return staleRunClaim(
        run.runId,
        `the checkpoint carries fence ${checkpoint.fence ?? 0}, the run is at fence ${Number(refusal.fence)}`,
      );
    case 'other_thread':
      return conflict(`run ${run.runId} belongs to thread ${String(refusal.threadId)}, not ${threadId}`, {
        runId: run.runId,
        threadId: refusal.threadId,
      });
    case 'stale_version': {
      const stored = Number(refusal.stored);
      return new AwakenError(
        'stale_version',
        `run ${run.runId} is at version ${stored}; a checkpoint must carry version ${stored + 1}, got ${run.version}`,
        { details: { runId: run.runId, stored, given: run.version } },
      );
    }
    case 'stale_append':
      try {
        expectLength(threadId, Number(refusal.actual), checkpoint.expectedMessageCount);
      } catch (error) {
        return error as AwakenError;
      }
      break;
    case 'invalid_transition':
      return new AwakenError(
        'invalid_transition',
        `RunStatus: illegal transition ${String(refusal.from)} -> ${run.status}`,
        { details: { machine: 'RunStatus', from: refusal.from, to: run.status } },
      );
  }
  return new AwakenError('store_failure', `postgres: an unknown refusal ${json(refusal)}`);
}

/** How `tr_write` answered: written, the append refused, or the checkpoint refused after the events. */
export type RunWriteReply =
  | { status: 'ok' }
  | { status: 'append_refused'; error: AwakenError }
  | { status: 'checkpoint_refused'; error: AwakenError };

export function runWriteReply(
  reply: string,
  events: EventsToAppend | undefined,
  checkpoint: Checkpoint | undefined,
): RunWriteReply {
  if (reply === 'ok') return { status: 'ok' };
  const refusal = JSON.parse(reply.slice(1)) as Record<string, unknown>;
  // a checkpoint alone answers its refusal with `!`, after events with `?`
  if (reply.startsWith('?') || (reply.startsWith('!') && events === undefined && checkpoint !== undefined)) {
    return { status: 'checkpoint_refused', error: checkpointRefusal(refusal, checkpoint as Checkpoint) };
  }
  if (reply.startsWith('!') && events !== undefined) {
    return { status: 'append_refused', error: appendRefusal(refusal, events) };
  }
  throw new AwakenError('store_failure', `postgres: an unexpected reply ${reply.slice(0, 200)}`);
}

/** One call of `tr_create_run_lease` (createRunWithLease). */
export function createRunLeaseCall(
  run: RunRecord,
  owner: string,
  leaseMs: number,
  createThread: boolean,
): FunctionCall {
  return {
    fn: 'tr_create_run_lease',
    args: [
      key(run.threadId),
      // the thread's record without its timestamps (the function adds them): { id, metadata: {} }
      createThread ? json({ id: run.threadId, metadata: {} }) : null,
      key(run.runId),
      json(run.runId),
      run.status,
      json(run),
      owner,
      leaseMs,
    ],
  };
}

/** The reply of `tr_create_run_lease`: when the lease began, and whether the thread was created. */
export function createRunLeaseReply(reply: string, run: RunRecord): { at: number; threadCreated: boolean } {
  if (reply.startsWith('!')) {
    const refusal = JSON.parse(reply.slice(1)) as { code: string };
    if (refusal.code === 'no_thread') throw notFound('thread', run.threadId);
    throw conflict(`run ${run.runId} already exists`, { id: run.runId });
  }
  return JSON.parse(reply) as { at: number; threadCreated: boolean };
}
