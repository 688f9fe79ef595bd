import {
  type DecisionReceipt,
  type DecisionRejectionReason,
  type RunRecord,
  decisionNames,
  duplicateReceipt,
} from '@awaken/contract';
import type { RunResult } from '../../types';

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
    const names = decisionNames(decision);
    return known.has(names.decisionId)
      ? duplicateReceipt(decision)
      : { ...names, status: 'rejected', reason, message };
  });
}
