import {
  AwakenError,
  type DecisionReceipt,
  type RunRecord,
  type ToolCallDecisionInput,
  decisionControl,
} from '@awaken/contract';
import { checkStoredDecisions } from '@awaken/runtime';
import type { DecideResult } from '../../types';
import { enqueueResume } from '../resume/enqueue-resume';
import type { ServiceContext } from '../service/service-context';

async function store(
  context: ServiceContext,
  runId: string,
  decision: ToolCallDecisionInput,
): Promise<DecisionReceipt> {
  const names = {
    ...(decision.ticketId ? { ticketId: decision.ticketId } : {}),
    decisionId: decision.decisionId,
  };
  try {
    const status = await context.stores.inbox.put(runId, decisionControl(decision));
    // a decision for an executing run may name only its ticket: the run resolves it
    const target = { toolCallId: decision.toolCallId ?? '', ...names };
    return status === 'stored' ? { ...target, status: 'accepted' } : { ...target, status: 'duplicate' };
  } catch (error) {
    if (!AwakenError.hasCode(error, 'conflict')) throw error;
    const toolCallId = decision.toolCallId === undefined ? {} : { toolCallId: decision.toolCallId };
    return {
      ...toolCallId,
      ...names,
      status: 'rejected',
      reason: 'duplicate_conflict',
      message: error.message,
    };
  }
}

/**
 * Delivers decisions to a run, whichever process executes it: each accepted decision is written to
 * the run's durable inbox (idempotent by `decisionId`). A live activation anywhere is woken by the
 * inbox and applies it at its next gate; a waiting run gets one resume dispatch for the same run id,
 * deduplicated, so any number of identical decisions produce one resume. A decision the run already
 * applied (or holds queued) is a `duplicate`, whatever the run's status.
 */
export async function decideRun(
  context: ServiceContext,
  record: RunRecord,
  decisions: readonly unknown[],
): Promise<DecideResult> {
  const receipts: DecisionReceipt[] = [];
  // checked against the run as stored: malformed, finished, stale or already applied ones stop here
  for (const checked of checkStoredDecisions(record, decisions)) {
    receipts.push('status' in checked ? checked : await store(context, record.runId, checked));
  }
  const delivered = receipts.some((receipt) => receipt.status !== 'rejected');
  if (record.status !== 'waiting' || !delivered) return { runId: record.runId, receipts };
  const resume = await enqueueResume(context, record);
  return { runId: record.runId, receipts, ...(resume ? { resumeDispatchId: resume.dispatchId } : {}) };
}
