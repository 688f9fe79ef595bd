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

const CHILD_RUN_ID = /^sub_[0-9a-f]{32}$/;
const CHILD_THREAD_ID = /^subthread_[0-9a-f]{32}$/;

/**
 * Whether an id has the shape `childIdsOf` derives (`sub_` / `subthread_` and 32 hex digits). Those
 * ids are the runtime's own: a caller who picks a parent's run id can compute its children's, so a
 * run asked for under one is refused — it would squat the child's run (continued as the child, read as
 * its answer) or put someone else's history on the child's thread.
 */
export function isChildId(kind: 'run' | 'thread', id: string): boolean {
  return (kind === 'run' ? CHILD_RUN_ID : CHILD_THREAD_ID).test(id);
}
