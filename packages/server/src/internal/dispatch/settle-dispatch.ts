// *Settle* is said only of a dispatch: ack it, nack it with backoff, or dead-letter it. What the run's
// record says is the runtime's; a dead-lettered run it did not finish is ended by end-dead-lettered-run.ts.
import { type ClaimProof, type RunDispatch, assertNever } from '@awaken/contract';
import { enqueueResume } from '../resume/enqueue-resume';
import { scheduleExpiry } from '../resume/schedule-expiry';
import type { ServiceContext } from '../service/service-context';
import { type ActivationOutcome, classifyOutcome } from './classify-outcome';
import { endDeadLetteredRun } from './end-dead-lettered-run';
import { retryDelay } from './retry-delay';

/** True when the activation saw the run end `done`: a done run never waits again, nothing to resume. */
function endedDone(outcome: ActivationOutcome): boolean {
  if (outcome.type === 'result') return outcome.result.status === 'done';
  return outcome.type === 'skipped' && outcome.record.status === 'done';
}

/** Enqueues what the stored run has to tell (idempotent: earlier notifications are not repeated). */
async function notifyOf(context: ServiceContext, runId: string): Promise<void> {
  const record = await context.stores.threadRuns.getRun(runId);
  if (record) await context.notifications?.record(record);
}

/** Outcome → dispatch: project the result, then ack / nack with backoff / dead-letter. */
export async function settleDispatch(
  context: ServiceContext,
  dispatch: RunDispatch,
  input: { proof: ClaimProof; dispatchInstanceId: string; outcome: ActivationOutcome },
): Promise<void> {
  const { mailbox } = context.stores;
  const { proof, dispatchInstanceId } = input;
  const plan = classifyOutcome(input.outcome);
  // the plan names a failure in our words; the error itself goes to onError when it ends the dispatch
  // (a retried one is retried as before: its next attempt, or its last, says more)
  const failure = input.outcome.type === 'failed' ? input.outcome.error : undefined;
  const reportFailure = () =>
    context.report(failure, `run ${dispatch.runId}: its dispatch was dead-lettered after this failure`);
  switch (plan.action) {
    case 'ack': {
      // before the ack: a crash in between redelivers this dispatch, which enqueues them again
      if (context.notifications) await notifyOf(context, dispatch.runId);
      // the result and the ack in one write, fenced once
      await mailbox.ack(plan.result ? { ...proof, result: { ...plan.result, dispatchInstanceId } } : proof);
      if (endedDone(input.outcome)) return;
      {
        // a decision that arrived after the activation last looked at the inbox, while this dispatch
        // still held the resume dedupe key, enqueued nothing: resume for it now that the key is free
        const record = await context.stores.threadRuns.getRun(dispatch.runId);
        if (record?.status === 'waiting') {
          await enqueueResume(context, record);
          // a ticket that expires moves the run on at its expiresAt, with or without a live process
          await scheduleExpiry(context, record);
        }
      }
      return;
    }
    case 'retry': {
      const delay = retryDelay(dispatch.attemptCount + 1, context.config, plan.retryAfterMs);
      const retryAt = plan.retryAt ?? (await mailbox.now()) + delay;
      const next = await mailbox.nack({ ...proof, error: plan.error, retryAt });
      if (next.status === 'dead_letter') {
        if (failure !== undefined) reportFailure();
        const reason = `dead-lettered after ${next.attemptCount} attempts; last error: ${plan.error}`;
        await endDeadLetteredRun(context, dispatch.runId, reason, dispatch.dispatchId);
        if (context.notifications) await notifyOf(context, dispatch.runId);
      }
      return;
    }
    case 'dead_letter':
      if (plan.result)
        await mailbox.recordRunResult({ ...proof, result: { ...plan.result, dispatchInstanceId } });
      // a run that ended with an error: told before the dead letter, as an ack would be
      if (context.notifications && !plan.endReason) await notifyOf(context, dispatch.runId);
      await mailbox.deadLetter({ ...proof, error: plan.error });
      if (failure !== undefined) reportFailure();
      if (plan.endReason) {
        await endDeadLetteredRun(context, dispatch.runId, plan.endReason, dispatch.dispatchId);
        if (context.notifications) await notifyOf(context, dispatch.runId);
      }
      return;
    default:
      return assertNever(plan);
  }
}
