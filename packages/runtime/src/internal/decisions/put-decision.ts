import {
  AwakenError,
  type DecisionReceipt,
  type RunControlInbox,
  type ToolCallDecision,
  decisionControl,
  rejectedReceipt,
} from '@awaken/contract';

/**
 * Writes one judged decision to the run's inbox: `accepted` once it is durably there, `duplicate`
 * when the inbox holds it already, `duplicate_conflict` when the inbox holds another answer for its
 * ticket (the one place two answers for a question meet atomically).
 */
export async function putDecision(
  inbox: RunControlInbox,
  runId: string,
  decision: ToolCallDecision,
): Promise<DecisionReceipt> {
  const { toolCallId, ticketId, decisionId } = decision;
  const target = { toolCallId, ...(ticketId === undefined ? {} : { ticketId }), decisionId };
  try {
    const stored = await inbox.put(runId, decisionControl(decision));
    return { ...target, status: stored === 'stored' ? 'accepted' : 'duplicate' };
  } catch (error) {
    if (!AwakenError.hasCode(error, 'conflict')) throw error;
    return rejectedReceipt(decision, 'duplicate_conflict', error.message);
  }
}
