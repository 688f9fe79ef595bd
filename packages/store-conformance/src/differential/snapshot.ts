import type { BackendEnv } from './backend-env';
import type { DifferentialStores } from './harness';
import { pages } from './paging';
import { POOLS } from './pools';

/**
 * Everything a backend holds that the pools can reach, read back after a sequence: every thread's
 * record, state, messages, runs, dispatches and epoch; every run's record, events and inbox; every
 * dispatch seen.
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
  return {
    threads,
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
