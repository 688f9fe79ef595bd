import type { z } from 'zod';
import type { RunDispatch, enqueueDispatchInputSchema } from './run-dispatch';

/**
 * A new dispatch as `MailboxStore.enqueue` stores it (before any claim): queued, no attempt yet, due
 * at `availableAt` (default `at`), in the thread's current epoch. The backends share it so a record
 * has the same fields on every one of them.
 */
export function queuedDispatch(
  input: z.output<typeof enqueueDispatchInputSchema>,
  dispatchId: string,
  dispatchEpoch: number,
  at: number,
): RunDispatch {
  return {
    dispatchId,
    threadId: input.threadId,
    runId: input.runId,
    priority: input.priority,
    ...(input.dedupeKey === undefined ? {} : { dedupeKey: input.dedupeKey }),
    dispatchEpoch,
    status: 'queued',
    availableAt: input.availableAt ?? at,
    attemptCount: 0,
    maxAttempts: input.maxAttempts,
    createdAt: at,
    updatedAt: at,
  };
}
