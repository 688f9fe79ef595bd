import { AwakenError, type RunRecord, describeAgentDrift } from '@awaken/contract';
import { queueDecisions } from '@awaken/runtime';
import type { DecideOptions, DecideResult } from '../../types';
import { enqueueResume } from '../resume/enqueue-resume';
import type { ServiceContext } from '../service/service-context';

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
  options: DecideOptions = {},
): Promise<DecideResult> {
  if (record.status === 'waiting' && context.onAgentChange === 'refuse') refuseAgentDrift(context, record);
  // judged against the run as stored, written to its inbox, judged again: `accepted` only if applied
  const { threadRuns: store, inbox } = context.stores;
  const receipts = await queueDecisions({ store, inbox }, record, decisions, options);
  const delivered = receipts.some((receipt) => receipt.status !== 'rejected');
  if (record.status !== 'waiting' || !delivered) return { runId: record.runId, receipts };
  const resume = await enqueueResume(context, record);
  return { runId: record.runId, receipts, ...(resume ? { resumeDispatchId: resume.dispatchId } : {}) };
}

/**
 * `onAgentChange: 'refuse'`: a decision for a waiting run whose agent changed since it started is
 * refused before anything is written (`conflict`, details `drift`), as the resume would be.
 */
function refuseAgentDrift(context: ServiceContext, record: RunRecord): void {
  const drift = context.agentDrift(record);
  if (!drift) return;
  throw new AwakenError(
    'conflict',
    `run ${record.runId} waits under another definition of agent "${record.agentId}": ${describeAgentDrift(drift)} changed since it started`,
    { details: { runId: record.runId, agentId: record.agentId, drift } },
  );
}
