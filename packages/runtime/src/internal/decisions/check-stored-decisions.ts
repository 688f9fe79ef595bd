import {
  type DecisionReceipt,
  type RunRecord,
  type ToolCallDecision,
  type ToolCallDecisionInput,
  decisionViewOf,
  judgeDecision,
} from '@awaken/contract';

/**
 * Judges decisions for a run that this caller does not hold against the run as stored
 * (`judgeDecision` over `decisionViewOf(record)`), before they are queued in its control inbox (by
 * `runtime.decide`, or a server delivering a user's click). Each result is either the decision
 * addressed to its call and bound to its ticket, to be queued, or the receipt of one that goes no
 * further. A run that executes elsewhere may have suspended since it was stored: a decision the
 * stored copy cannot confirm is passed on as named, and its owner judges it at its next gate.
 */
export function checkStoredDecisions(
  record: RunRecord,
  decisions: readonly unknown[],
): Array<ToolCallDecision | ToolCallDecisionInput | DecisionReceipt> {
  const view = decisionViewOf(record);
  return decisions.map((input) => {
    const judged = judgeDecision(view, input);
    return judged.decision ?? judged.deferred ?? judged.receipt;
  });
}
