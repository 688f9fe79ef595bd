import { AwakenError, type ClaimProof, type RunDispatch } from '@awaken/contract';
import { type ActivationOutcome, classifyOutcome } from './classify-outcome';
import { finalizeRun } from './finalize-run';
import { startLeaseHeartbeat } from './lease-heartbeat';
import { retryDelay } from './retry-delay';
import type { LiveActivation, ServiceContext } from './service-context';
import { checkThreadGate } from './thread-gate';

async function hasInboxWork(context: ServiceContext, runId: string): Promise<boolean> {
  return (await context.stores.inbox.peek(runId)).length > 0;
}

/**
 * Executes the run of a claimed dispatch: a run that is done, or waits with an empty inbox, needs
 * nothing. A run that suspends while decisions already wait in its inbox is resumed again under the
 * same claim, so a decision that raced the suspension is never left without a dispatch.
 */
async function activate(
  context: ServiceContext,
  dispatch: RunDispatch,
  signal: AbortSignal,
): Promise<ActivationOutcome> {
  try {
    const record = await context.stores.threadRuns.getRun(dispatch.runId);
    if (!record) throw new AwakenError('not_found', `run ${dispatch.runId} not found`);
    if (record.status === 'done') return { type: 'skipped', record };
    if (record.status === 'waiting' && !(await hasInboxWork(context, record.runId))) {
      return { type: 'skipped', record };
    }
    if (record.status === 'created') {
      const gate = await checkThreadGate(context, record);
      if (gate.type === 'defer') return { type: 'deferred', retryAt: gate.retryAt, reason: gate.reason };
    }
    while (true) {
      const handle = context.runtime.resumeRun(record.runId, { signal, onSuspend: 'return' });
      const result = await handle.result;
      if (result.status !== 'waiting' || signal.aborted || !(await hasInboxWork(context, result.runId))) {
        return { type: 'result', result };
      }
    }
  } catch (error) {
    return { type: 'failed', error };
  }
}

/** True when the thread moved to a newer epoch than the dispatch's: a newer run interrupted it. */
async function wasInterrupted(context: ServiceContext, dispatch: RunDispatch): Promise<boolean> {
  const epoch = await context.stores.mailbox.threadEpoch(dispatch.threadId);
  return epoch > dispatch.dispatchEpoch;
}

/** Outcome → dispatch: project the result, then ack / nack with backoff / dead-letter. */
async function settle(
  context: ServiceContext,
  dispatch: RunDispatch,
  proof: ClaimProof,
  dispatchInstanceId: string,
  outcome: ActivationOutcome,
): Promise<void> {
  const { mailbox } = context.stores;
  const plan = classifyOutcome(outcome);
  switch (plan.action) {
    case 'ack':
      if (plan.result)
        await mailbox.recordRunResult({ ...proof, result: { ...plan.result, dispatchInstanceId } });
      await mailbox.ack(proof);
      return;
    case 'retry': {
      const delay = retryDelay(dispatch.attemptCount + 1, context.config, plan.retryAfterMs);
      const retryAt = plan.retryAt ?? (await mailbox.now()) + delay;
      const next = await mailbox.nack({ ...proof, error: plan.error, retryAt });
      if (next.status === 'dead_letter') {
        const reason = `dead-lettered after ${next.attemptCount} attempts; last error: ${plan.error}`;
        await finalizeRun(context, dispatch.runId, reason, dispatch.dispatchId);
      }
      return;
    }
    case 'dead_letter':
      if (plan.result)
        await mailbox.recordRunResult({ ...proof, result: { ...plan.result, dispatchInstanceId } });
      await mailbox.deadLetter({ ...proof, error: plan.error });
      if (plan.finalizeReason) {
        await finalizeRun(context, dispatch.runId, plan.finalizeReason, dispatch.dispatchId);
      }
      return;
    default: {
      const never: never = plan;
      throw new AwakenError('internal', `unknown dispatch plan ${JSON.stringify(never)}`);
    }
  }
}

/** After an interrupt the stale claim is superseded, which frees the thread for the newer run. */
async function releaseInterrupted(context: ServiceContext, dispatch: RunDispatch): Promise<void> {
  try {
    await context.stores.mailbox.supersedeClaimed(dispatch.dispatchId);
  } catch (error) {
    // already superseded by a sweep of its expired lease
    if (!AwakenError.hasCode(error, 'conflict')) throw error;
  }
}

/**
 * Runs one claimed dispatch to its settlement: records the start, heartbeats the lease while the
 * run executes, settles the dispatch by the outcome. An interrupted claim (the thread's epoch moved
 * on) cancels the run and supersedes the claim; a lost lease leaves the dispatch to whoever
 * reclaimed it. Never throws: failures are reported.
 */
export function executeDispatch(context: ServiceContext, dispatch: RunDispatch): LiveActivation {
  const { mailbox } = context.stores;
  const { claimToken } = dispatch;
  if (claimToken === undefined)
    throw new AwakenError('internal', `dispatch ${dispatch.dispatchId} is not claimed`);
  const proof: ClaimProof = { dispatchId: dispatch.dispatchId, claimToken };
  const controller = new AbortController();
  let interrupted = false;
  const noteLoss = async () => {
    if (await wasInterrupted(context, dispatch)) {
      interrupted = true;
      controller.abort('interrupted by newer input');
    }
  };
  const heartbeat = startLeaseHeartbeat({
    mailbox,
    proof,
    leaseMs: context.config.leaseMs,
    everyMs: context.config.heartbeatMs,
    onLost: () => void noteLoss().catch((error) => context.report(error, 'checking a lost lease')),
    onError: (error) => context.report(error, `extending the lease of ${dispatch.dispatchId}`),
  });
  const done = (async () => {
    try {
      const dispatchInstanceId = context.config.createId();
      await mailbox.recordDispatchStart({ ...proof, dispatchInstanceId });
      const outcome = await activate(context, dispatch, controller.signal);
      heartbeat.stop();
      if (!interrupted && controller.signal.aborted && (await wasInterrupted(context, dispatch))) {
        interrupted = true;
      }
      if (interrupted) return await releaseInterrupted(context, dispatch);
      await settle(context, dispatch, proof, dispatchInstanceId, outcome);
    } catch (error) {
      if (AwakenError.hasCode(error, 'stale_claim') && (await wasInterrupted(context, dispatch))) {
        await releaseInterrupted(context, dispatch);
      } else {
        context.report(error, `settling dispatch ${dispatch.dispatchId} of run ${dispatch.runId}`);
      }
    } finally {
      heartbeat.stop();
      if (context.live.get(dispatch.runId)?.dispatch === dispatch) context.live.delete(dispatch.runId);
    }
  })().catch((error) => context.report(error, `dispatch ${dispatch.dispatchId}`));
  const live: LiveActivation = {
    dispatch,
    cancel: (reason) => controller.abort(reason),
    done,
  };
  context.live.set(dispatch.runId, live);
  return live;
}
