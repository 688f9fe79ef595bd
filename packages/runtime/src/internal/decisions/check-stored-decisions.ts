import {
  type DecisionReceipt,
  type RunRecord,
  type ToolCallDecision,
  decisionViewOf,
  judgeDecision,
} from '@awaken/contract';

/**
 * Judges decisions for a run that this caller does not hold against the run as stored
 * (`judgeDecision` over `decisionViewOf(record)`), before they are queued in its control inbox (by
 * `runtime.decide`, or a server delivering a user's click). Each result is either the decision
 * addressed to its call and bound to its ticket, to be queued, or the receipt of one that goes no
 * further; an answer to a ticket expired at `now` is refused `ticket_expired`. Only a call the
 * stored run shows suspended can be answered, whatever the run's status:
 * the runtime stores a suspension before it announces it.
 */
export function checkStoredDecisions(
  record: RunRecord,
  decisions: readonly unknown[],
  now: number = Date.now(),
): Array<ToolCallDecision | DecisionReceipt> {
  const view = decisionViewOf(record, now);
  return decisions.map((input) => {
    const judged = judgeDecision(view, input);
    return judged.decision ?? judged.receipt;
  });
}
