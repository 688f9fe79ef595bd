import { createHash } from 'node:crypto';

/**
 * The run and thread ids of the child run a call starts: derived from the parent run, the step of
 * the call's turn and the call id (a model may reuse a call id in a later turn: that is another
 * call, with another child), so a call executed again finds its child instead of starting another.
 * A fixed-length hash keeps ids short at any depth; the record's `parentRunId`/`parentCallId` say
 * whose child it is.
 */
export function childIdsOf(parent: { runId: string; step: number; callId: string }): {
  runId: string;
  threadId: string;
} {
  const digest = createHash('sha256')
    .update(JSON.stringify([parent.runId, parent.step, parent.callId]))
    .digest('hex')
    .slice(0, 32);
  return { runId: `sub_${digest}`, threadId: `subthread_${digest}` };
}
