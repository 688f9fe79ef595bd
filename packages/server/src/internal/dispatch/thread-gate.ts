import {
  AwakenError,
  type Page,
  type RunDispatch,
  type RunRecord,
  type Thread,
  isTerminalDispatchStatus,
} from '@awaken/contract';
import type { ServiceContext } from '../service/service-context';
import { DEAD_LETTERED } from './end-dead-lettered-run';
import { publicDispatchError } from './public-reason';

/** Every dispatch of a thread, oldest first (only read on the rare paths that need them all). */
async function dispatchesOfThread(context: ServiceContext, threadId: string): Promise<RunDispatch[]> {
  const all: RunDispatch[] = [];
  let cursor: string | undefined;
  do {
    const page = await context.stores.mailbox.listDispatches(threadId, {
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

/**
 * Runs of the thread that never started and never will: they have dispatches and all of them ended
 * (superseded by an interrupt). They are ended here, under the thread's claim, so nothing else
 * writes to the thread. A run with no dispatch yet is being submitted (stored before it is
 * enqueued) and is left alone.
 */
async function cancelSupersededRuns(
  context: ServiceContext,
  record: RunRecord,
  created: readonly RunRecord[],
): Promise<void> {
  const others = created.filter((run) => run.runId !== record.runId);
  if (others.length === 0) return;
  const all = await dispatchesOfThread(context, record.threadId);
  for (const run of others) {
    const dispatches = all.filter((dispatch) => dispatch.runId === run.runId);
    const ended =
      dispatches.length > 0 && dispatches.every((dispatch) => isTerminalDispatchStatus(dispatch.status));
    if (ended) await endOrphan(context, record.threadId, run.runId);
  }
}

/** What the gate reads of a thread: the thread, and its runs not started yet. */
export type ThreadGateReads = [Thread | null, Page<RunRecord>];

/**
 * The gate's reads of the thread, side by side (one round trip where the store batches same-tick
 * reads); the listing has no effect until the open run is known not to wait. Asked after the claim.
 */
export function readThreadGate(context: ServiceContext, threadId: string): Promise<ThreadGateReads> {
  const { threadRuns } = context.stores;
  return Promise.all([
    threadRuns.getThread(threadId),
    threadRuns.listRuns(threadId, { status: ['created'], limit: 100 }),
  ]);
}

/** Whether a run that has not started yet may start now on its thread. */
export type ThreadGate = { type: 'open' } | { type: 'defer'; retryAt: number; reason: string };

/**
 * Checks the thread before a new run (status `created`) starts under its claim, so two runs never
 * interleave their messages in one thread:
 * - another run of the thread waits for a decision → `conflict` (decide or cancel it first);
 * - an earlier run is unfinished and still has a queued dispatch (a retry in backoff) → defer until
 *   its retry is due, so the thread's runs keep their order;
 * - an earlier run is unfinished with no dispatch left (interrupted while its process died), or
 *   never started because an interrupt superseded it → it is ended here, under this claim, before
 *   the new run starts (`error` when its dispatch was dead-lettered, `cancelled` when interrupted).
 */
export async function checkThreadGate(
  context: ServiceContext,
  record: RunRecord,
  /** The gate's reads of `record`'s thread, when already asked (see {@link readThreadGate}). */
  reads: Promise<ThreadGateReads> = readThreadGate(context, record.threadId),
): Promise<ThreadGate> {
  const { threadRuns, mailbox } = context.stores;
  const [thread, created] = await reads;
  const openRunId = thread?.openRunId;
  if (openRunId !== undefined && openRunId !== record.runId) {
    const open = await threadRuns.getRun(openRunId);
    if (open?.status === 'waiting') {
      throw new AwakenError(
        'conflict',
        `thread ${record.threadId} has a waiting run ${openRunId}; decide or cancel it before run ${record.runId} can start`,
        { details: { threadId: record.threadId, openRunId } },
      );
    }
  }
  await cancelSupersededRuns(context, record, created.items);
  const activeRunId = thread?.activeRunId;
  if (activeRunId === undefined || activeRunId === record.runId) return { type: 'open' };
  const active = await threadRuns.getRun(activeRunId);
  if (!active || active.status === 'done' || active.status === 'waiting') return { type: 'open' };
  const pending = await mailbox.listDispatches(record.threadId, { status: ['queued'], limit: 1000 });
  const retry = pending.items.find((dispatch) => dispatch.runId === activeRunId);
  if (retry) {
    return {
      type: 'defer',
      retryAt: retry.availableAt + 1,
      reason: `deferred behind run ${activeRunId}, which retries at ${retry.availableAt}`,
    };
  }
  await endOrphan(context, record.threadId, activeRunId);
  return { type: 'open' };
}

/**
 * How to end an unfinished run with no dispatch left, from its latest one: dead-lettered → the
 * service gave up on it (`error`, code `dead_lettered`); otherwise it was interrupted (`cancelled`).
 */
export function orphanEnd(
  dispatch: RunDispatch | undefined,
): { type: 'error'; message: string } | { type: 'cancelled'; reason: string } {
  if (dispatch?.status === 'dead_letter') {
    return {
      type: 'error',
      message: `dead-lettered after ${dispatch.attemptCount} attempts; last error: ${dispatch.lastError === undefined ? 'unknown' : publicDispatchError(dispatch.lastError)}`,
    };
  }
  return { type: 'cancelled', reason: 'interrupted by newer input' };
}

/** Ends a run nobody will continue; a concurrent end (a sweeper ending it) is fine. */
async function endOrphan(context: ServiceContext, threadId: string, runId: string): Promise<void> {
  const all = await dispatchesOfThread(context, threadId);
  const end = orphanEnd(all.filter((dispatch) => dispatch.runId === runId).at(-1));
  try {
    if (end.type === 'error')
      await context.runtime.failRun(runId, { message: end.message, code: DEAD_LETTERED });
    else await context.runtime.cancelRun(runId, end.reason);
  } catch (error) {
    const now = await context.stores.threadRuns.getRun(runId);
    if (now?.status !== 'done') throw error;
  }
}
