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

/** The receipt of a decision the run already applied (or holds queued): it will not apply twice. */
export function duplicateOf(decision: unknown, toolCallId?: string): DecisionReceipt {
  const names = namesOf(decision);
  return {
    ...names,
    ...(names.toolCallId === undefined && toolCallId !== undefined ? { toolCallId } : {}),
    status: 'duplicate',
  };
}

/**
 * Receipts for decisions that reach no activation: each is rejected with `reason`, except one whose
 * id the run already applied or holds queued (`known`), which is a `duplicate`.
 */
export function rejectAll(
  decisions: readonly unknown[],
  reason: DecisionRejectionReason,
  message: string,
  known: ReadonlySet<string> = new Set(),
): DecisionReceipt[] {
  return decisions.map((decision) => {
    const names = namesOf(decision);
    return known.has(names.decisionId)
      ? duplicateOf(decision)
      : { ...names, status: 'rejected', reason, message };
  });
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
