import { AwakenError, type ClaimProof, type RunDispatch } from '@awaken/contract';
import type { LiveActivation, ServiceContext } from '../service/service-context';
import { activateRun } from './activate-run';
import { startLeaseHeartbeat } from './lease-heartbeat';
import { settleDispatch } from './settle-dispatch';

/** True when the thread moved to a newer epoch than the dispatch's: a newer run interrupted it. */
async function wasInterrupted(context: ServiceContext, dispatch: RunDispatch): Promise<boolean> {
  const epoch = await context.stores.mailbox.threadEpoch(dispatch.threadId);
  return epoch > dispatch.dispatchEpoch;
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
 * Runs one claimed dispatch to its settlement: records the start (unless it was recorded with the
 * claim: `startedAs`), heartbeats the claim and the run's lease while the run executes, settles the
 * dispatch by the outcome. An interrupted claim (the thread's epoch moved on) cancels the run and
 * supersedes the claim: noticed by the heartbeat, or by the settlement's fencing (`stale_claim`), so a
 * run that ends unnoticed costs no extra epoch read; a lost lease detaches the activation and leaves
 * the dispatch to whoever reclaimed it. `detach` (shutdown) stops the run at its next safe point and
 * hands the dispatch back. Never throws: failures are reported.
 */
export function executeDispatch(
  context: ServiceContext,
  dispatch: RunDispatch,
  startedAs?: string,
): LiveActivation {
  const { mailbox, threadRuns } = context.stores;
  const { claimToken } = dispatch;
  if (claimToken === undefined)
    throw new AwakenError('internal', `dispatch ${dispatch.dispatchId} is not claimed`);
  const proof: ClaimProof = { dispatchId: dispatch.dispatchId, claimToken };
  const run = activateRun(context, dispatch);
  let ending: 'interrupted' | 'lease_lost' | 'detached' | undefined;
  const noteLoss = async () => {
    if (await wasInterrupted(context, dispatch)) {
      ending = 'interrupted';
      run.cancel('interrupted by newer input');
    } else {
      ending ??= 'lease_lost';
      run.detach('the claim was lost (its lease expired and the run was taken over)');
    }
  };
  const heartbeat = startLeaseHeartbeat({
    everyMs: context.config.heartbeatMs,
    async beat() {
      await mailbox.extendLease({ ...proof, leaseMs: context.config.leaseMs });
      const lease = run.lease();
      if (lease) await threadRuns.renewRun({ ...lease, leaseMs: context.config.leaseMs });
    },
    onLost: () => void noteLoss().catch((error) => context.report(error, 'checking a lost lease')),
    onError: (error) => context.report(error, `extending the lease of ${dispatch.dispatchId}`),
  });
  const done = (async () => {
    try {
      const dispatchInstanceId = startedAs ?? context.config.createId();
      if (startedAs === undefined) await mailbox.recordDispatchStart({ ...proof, dispatchInstanceId });
      const outcome = await run.outcome;
      heartbeat.stop();
      // an interrupt the heartbeat did not notice fails the settlement's fencing: handled below
      if (ending === 'interrupted') return await releaseInterrupted(context, dispatch);
      if (ending === 'lease_lost') return;
      if (ending === 'detached' && outcome.type === 'failed') {
        await mailbox.nack({ ...proof, error: 'detached: the worker stopped', retryAt: await mailbox.now() });
        return;
      }
      await settleDispatch(context, dispatch, { proof, dispatchInstanceId, outcome });
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
    cancel: (reason) => run.cancel(reason),
    detach(reason) {
      ending ??= 'detached';
      run.detach(reason);
    },
    done,
  };
  context.live.set(dispatch.runId, live);
  return live;
}
