import { AwakenError, type ThreadRunStore } from '@awaken/contract';

/**
 * Wraps a store so that, after `commitsBeforeCrash` successful checkpoints, every later checkpoint
 * fails: the process "crashed" and nothing after that point reached the store.
 */
export function createCrashingStore(inner: ThreadRunStore, commitsBeforeCrash: number): ThreadRunStore {
  let commits = 0;
  return {
    ...inner,
    createThread: (input) => inner.createThread(input),
    getThread: (id) => inner.getThread(id),
    listThreads: (page) => inner.listThreads(page),
    deleteThread: (id) => inner.deleteThread(id),
    updateThreadMetadata: (id, metadata) => inner.updateThreadMetadata(id, metadata),
    getThreadState: (id) => inner.getThreadState(id),
    appendMessages: (id, input) => inner.appendMessages(id, input),
    readMessages: (id, range) => inner.readMessages(id, range),
    messageCount: (id) => inner.messageCount(id),
    createRun: (record) => inner.createRun(record),
    getRun: (id) => inner.getRun(id),
    listRuns: (id, query) => inner.listRuns(id, query),
    listRunsByStatus: (status, page) => inner.listRunsByStatus(status, page),
    acquireRun: (id, input) => inner.acquireRun(id, input),
    renewRun: (proof) => inner.renewRun(proof),
    releaseRun: (proof) => inner.releaseRun(proof),
    async commitCheckpoint(checkpoint) {
      if (commits >= commitsBeforeCrash) throw new AwakenError('store_failure', 'simulated crash');
      commits += 1;
      return inner.commitCheckpoint(checkpoint);
    },
  };
}
