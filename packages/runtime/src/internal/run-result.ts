import type {
  DecisionReceipt,
  DecisionRejectionReason,
  RunRecord,
  ToolCallDecisionInput,
} from '@awaken/contract';
import type { RunResult } from '../types';

/** The result a stored run record stands for. */
export function resultOf(record: RunRecord): RunResult {
  return {
    runId: record.runId,
    threadId: record.threadId,
    status: record.status,
    termination: record.termination ?? { type: 'natural_end' },
    ...(record.response === undefined ? {} : { response: record.response }),
    usage: record.usage,
    steps: record.steps,
    ...(record.waiting ? { waiting: record.waiting } : {}),
  };
}

export function rejectAll(
  decisions: readonly ToolCallDecisionInput[],
  reason: DecisionRejectionReason,
  message: string,
): DecisionReceipt[] {
  return decisions.map((decision) => ({
    ...(decision.toolCallId === undefined ? {} : { toolCallId: decision.toolCallId }),
    ...(decision.ticketId === undefined ? {} : { ticketId: decision.ticketId }),
    decisionId: decision.decisionId,
    status: 'rejected',
    reason,
    message,
  }));
}
