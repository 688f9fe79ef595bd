import { runDispatchStatusSchema } from '@awaken/contract';
import type { BackendEnv } from './backend-env';
import type { DifferentialStores } from './harness';
import { pages } from './paging';
import { POOLS } from './pools';

/**
 * Everything a backend holds that the pools can reach, read back after a sequence: every thread's
 * record, state, messages, runs, dispatches and epoch; every run's record, events and inbox; every
 * dispatch seen; the tenant-wide views (dispatch counts and listings by status, every run).
 */
export async function snapshot(stores: DifferentialStores, env: BackendEnv): Promise<unknown> {
  const { mailbox, threadRuns, eventLog, inbox } = stores;
  const threads = [];
  for (const threadId of POOLS.threads) {
    threads.push({
      threadId,
      thread: await threadRuns.getThread(threadId),
      state: await threadRuns.getThreadState(threadId),
      messages: await threadRuns.readMessages(threadId),
      runs: await pages((cursor) => threadRuns.listRuns(threadId, { cursor, limit: 1000 }), 10),
      dispatches: await pages((cursor) => mailbox.listDispatches(threadId, { cursor, limit: 1000 }), 10),
      epoch: await mailbox.threadEpoch(threadId),
    });
  }
  const runs = [];
  for (const runId of POOLS.runs) {
    runs.push({
      runId,
      run: await threadRuns.getRun(runId),
      events: await eventLog.read(runId),
      lastSeq: await eventLog.lastSeq(runId),
      finished: await eventLog.isFinished(runId),
      pending: await inbox.peek(runId),
    });
  }
  const dispatches = [];
  for (const dispatchId of env.dispatchIds) dispatches.push(await mailbox.loadDispatch(dispatchId));
  const dispatchesByStatus: Record<string, unknown> = {};
  for (const status of runDispatchStatusSchema.options) {
    dispatchesByStatus[status] = await pages(
      (cursor) => mailbox.listDispatchesByStatus(status, { cursor, limit: 2 }),
      50,
    );
  }
  return {
    threads,
    dispatchCounts: await mailbox.countDispatches(),
    dispatchesByStatus,
    allRuns: await pages((cursor) => threadRuns.listAllRuns({ cursor, limit: 2 }), 50),
    liveRuns: await pages(
      (cursor) => threadRuns.listAllRuns({ cursor, limit: 1000, status: ['created', 'running', 'waiting'] }),
      10,
    ),
    allThreads: await pages((cursor) => threadRuns.listThreads({ cursor, limit: 1000 }), 10),
    newestThreads: await pages(
      (cursor) => threadRuns.listThreads({ cursor, limit: 1000, order: 'newest' }),
      10,
    ),
    runs,
    dispatches,
    now: await mailbox.now(),
  };
}
