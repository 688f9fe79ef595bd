/**
 * The mailbox keys the store reads itself (P = prefix). What each holds, and the keys only the
 * scripts touch, is written beside the scripts: `lua/mailbox/mailbox-prelude.ts`.
 */
export function mailboxKeys(prefix: string) {
  return {
    /** hash: a dispatch (field names: `mailbox/dispatch-fields.ts`). */
    dispatch: (dispatchId: string) => `${prefix}d:${dispatchId}`,
    /** zset: a thread's dispatches by enqueue seq. */
    threadDispatches: (threadId: string) => `${prefix}ta:${threadId}`,
    /** zset: the dispatches with that status now, by enqueue seq (the status index). */
    withStatus: (status: string) => `${prefix}st:${status}`,
    /** hash: `e:<thread>` -> the thread's dispatch epoch, `c:<thread>` -> its claimed dispatch. */
    threadState: `${prefix}tstate`,
    /** list: the wake-up markers `waitForWork` pops. */
    wake: `${prefix}wake`,
  };
}

export type MailboxKeys = ReturnType<typeof mailboxKeys>;
