import type { DecisionReceipt, DecisionRejectionReason, RunRecord } from '@awaken/contract';
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
  decisions: readonly unknown[],
  reason: DecisionRejectionReason,
  message: string,
): DecisionReceipt[] {
  return decisions.map((decision) => ({ ...namesOf(decision), status: 'rejected', reason, message }));
}

/** What a receipt can name of a decision that may be malformed (any value a caller passed). */
export function namesOf(decision: unknown): { toolCallId?: string; ticketId?: string; decisionId: string } {
  const fields = (typeof decision === 'object' && decision !== null ? decision : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const toolCallId = text(fields.toolCallId);
  const ticketId = text(fields.ticketId);
  return {
    ...(toolCallId === undefined ? {} : { toolCallId }),
    ...(ticketId === undefined ? {} : { ticketId }),
    decisionId: text(fields.decisionId) ?? '',
  };
}
