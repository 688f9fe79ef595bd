/**
 * The keys of threads and runs the store reads itself (P = prefix). What each holds, and the keys
 * only the scripts touch, is written beside the scripts: `lua/threads/thread-prelude.ts`.
 */
export function threadRunKeys(prefix: string) {
  return {
    /** zset: thread ids by creation seq. */
    threads: `${prefix}threads`,
    /** zset: thread ids by the seq of their last write (newest first when read in reverse). */
    threadsWritten: `${prefix}threads:written`,
    /** hash: a thread. */
    thread: (threadId: string) => `${prefix}th:${threadId}`,
    /** list: a thread's message log. */
    messages: (threadId: string) => `${prefix}thm:${threadId}`,
    /** zset: the ids of a thread's branches by creation seq. */
    threadBranches: (threadId: string) => `${prefix}thb:${threadId}`,
    /** zset: a thread's run ids by creation seq. */
    threadRuns: (threadId: string) => `${prefix}thr:${threadId}`,
    /** hash: a run (its record in the field `json`). */
    run: (runId: string) => `${prefix}run:${runId}`,
    /** zset: the ids of the runs with that status now. */
    runsWithStatus: (status: string) => `${prefix}rs:${status}`,
  };
}

export type ThreadRunKeys = ReturnType<typeof threadRunKeys>;
