import type { RunEventLog, ThreadRunStore } from '@awaken/contract';

/** A thread-run store and the event log it offers a joint checkpoint write for (one backend). */
export interface JointStores {
  threadRuns: ThreadRunStore;
  eventLog: RunEventLog;
}
