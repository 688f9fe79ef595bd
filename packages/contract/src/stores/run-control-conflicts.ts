import { AwakenError } from '../errors/awaken-error';
import { type RunControl, decisionTarget } from './run-control-inbox';

// The put rules of `RunControlInbox` that every backend applies the same way (the Redis scripts in
// the same words): whether a put under a pending entry's id is a re-send, and the two `conflict`s a
// put can meet.

/** The same command again (a re-send: same kind, and for a decision the same target) under a pending id. */
export function isResentRunControl(earlier: RunControl, control: RunControl): boolean {
  if (earlier.kind !== control.kind) return false;
  return earlier.kind !== 'decision' || control.kind !== 'decision'
    ? true
    : decisionTarget(earlier.decision) === decisionTarget(control.decision);
}

/** `conflict`: the id of a pending entry given for another command (kind or decision target). */
export function reusedRunControlId(runId: string, id: string): AwakenError {
  return new AwakenError('conflict', `run control ${id} of run ${runId} is pending as another command`, {
    details: { runId, id },
  });
}

/** `conflict`: a second pending decision for one target ({@link decisionTarget}). */
export function secondPendingDecision(runId: string, target: string, pendingDecisionId: string): AwakenError {
  return new AwakenError(
    'conflict',
    `${target} of run ${runId} already has pending decision ${pendingDecisionId}`,
    {
      details: { runId, target, pendingDecisionId },
    },
  );
}
