import {
  type AcquiredWithFence,
  AwakenError,
  type RunDispatch,
  type RunLease,
  jointAcquirer,
} from '@awaken/contract';
import type { RunHandle } from '@awaken/runtime';
import { pendingWork } from '../resume/pending-work';
import { hasExpiredTicket } from '../resume/schedule-expiry';
import { abortableDelay } from '../service/abortable-delay';
import type { ServiceContext } from '../service/service-context';
import { adoptLeftoverInput } from '../submit/adopt-leftover-input';
import type { ActivationOutcome } from './classify-outcome';
import { checkThreadGate, readThreadGate } from './thread-gate';

/** The run an activation executes, as the claim's owner steers it. */
export interface RunActivation {
  readonly outcome: Promise<ActivationOutcome>;
  /** The run's lease, once held: renewed by the claim's heartbeat. */
  lease(): RunLease | undefined;
  cancel(reason: string): void;
  /** Stops at the next safe point without a terminal state; the run is continued elsewhere. */
  detach(reason: string): void;
}

/**
 * True when the run's inbox holds work for a resume now (`pendingWork`): input alone, for a run that
 * suspended, is not — resuming for it would suspend again at once, without end.
 */
async function hasInboxWork(context: ServiceContext, runId: string): Promise<boolean> {
  const controls = await context.stores.inbox.peek(runId);
  if (controls.length === 0) return false;
  const record = await context.stores.threadRuns.getRun(runId);
  return record !== null && pendingWork(record, controls).length > 0;
}

/**
 * Takes the run's lease for the claim's activation. The run may still be held for a moment by an
 * activation that just stopped — a process that died (its run lease can outlive its claim's by a
 * little), or a cancel running elsewhere: the claim is ours, so wait for that lease to lapse (the
 * heartbeat keeps the claim) rather than spend a delivery attempt on `run_busy`.
 */
async function acquireUnderClaim(
  context: ServiceContext,
  runId: string,
  stopped: () => boolean,
): Promise<{ lease: RunLease; acquired?: AcquiredWithFence }> {
  const giveUpAt = Date.now() + 2 * context.config.leaseMs;
  // the stores' joint acquisition, when offered: the lease, the log's fence and the record in one
  // call, through the hot run cache (the record it reads arms the cached history like a getRun)
  const joint = jointAcquirer(context.hotCache.store, context.stores.eventLog);
  const request = { owner: context.config.workerId, leaseMs: context.config.leaseMs };
  while (true) {
    try {
      if (joint === undefined) return { lease: await context.stores.threadRuns.acquireRun(runId, request) };
      const acquired = await joint.acquireRunWithFence(runId, request);
      return { lease: acquired.lease, acquired };
    } catch (error) {
      if (!AwakenError.hasCode(error, 'run_busy') || stopped() || Date.now() >= giveUpAt) throw error;
      await abortableDelay(Math.min(Math.max(error.retryAfterMs ?? 50, 10), 250));
    }
  }
}

/**
 * Executes the run of a claimed dispatch under the claim: takes the run's lease (its fence guards
 * every checkpoint and event the activation writes) and hands it to the runtime. A run that is
 * done, or waits with an empty inbox and no expired ticket, needs nothing. A run that suspends while commands already wait
 * in its inbox is resumed again under the same claim, so nothing that raced the suspension is left
 * without a dispatch. Input injected too late for a run that ended becomes the thread's next run.
 */
export function activateRun(context: ServiceContext, dispatch: RunDispatch): RunActivation {
  const controller = new AbortController();
  let detached: string | undefined;
  let handle: RunHandle | undefined;
  let lease: RunLease | undefined;
  const { threadRuns } = context.stores;

  async function execute(): Promise<ActivationOutcome> {
    // asked beside the record, after it (one round trip where the store batches same-tick reads):
    // the thread gate's reads, used for a run not started yet, and the inbox, for a waiting run
    const reading = threadRuns.getRun(dispatch.runId);
    const gateReads = readThreadGate(context, dispatch.threadId);
    const controls = context.stores.inbox.peek(dispatch.runId);
    // a read not used (or not reached) fails nothing
    gateReads.catch(() => undefined);
    controls.catch(() => undefined);
    const record = await reading;
    if (!record) throw new AwakenError('not_found', `run ${dispatch.runId} not found`);
    if (record.status === 'done') {
      await adoptLeftoverInput(context, record);
      return { type: 'skipped', record };
    }
    if (
      record.status === 'waiting' &&
      !hasExpiredTicket(record, Date.now()) &&
      pendingWork(record, await controls).length === 0
    ) {
      return { type: 'skipped', record };
    }
    if (record.status === 'created') {
      const gate = await checkThreadGate(
        context,
        record,
        record.threadId === dispatch.threadId ? gateReads : undefined,
      );
      if (gate.type === 'defer') return { type: 'deferred', retryAt: gate.retryAt, reason: gate.reason };
    }
    const taken = await acquireUnderClaim(context, record.runId, () => detached !== undefined);
    lease = taken.lease;
    // the first activation loads from what the joint acquisition read; a later one reads again
    let acquired = taken.acquired;
    try {
      while (true) {
        if (detached !== undefined) throw new AwakenError('detached', detached);
        handle = context.runtime.resumeRun(record.runId, {
          signal: controller.signal,
          onSuspend: 'return',
          lease,
          ...(acquired ? { acquired } : {}),
        });
        acquired = undefined;
        if (detached !== undefined) handle.detach(detached);
        context.liveEvents.publish(record.runId, handle.events);
        const result = await handle.result;
        const again =
          result.status === 'waiting' &&
          !controller.signal.aborted &&
          (await hasInboxWork(context, result.runId));
        if (!again) {
          if (result.status === 'done') await adoptLeftoverInput(context, { ...record, status: 'done' });
          return { type: 'result', result };
        }
      }
    } finally {
      const held = lease;
      lease = undefined;
      await threadRuns
        .releaseRun(held)
        .catch((error) => context.report(error, `releasing run ${held.runId}`));
    }
  }

  const outcome = execute().catch((error: unknown): ActivationOutcome => ({ type: 'failed', error }));
  return {
    outcome,
    lease: () => lease,
    cancel: (reason) => controller.abort(reason),
    detach(reason) {
      detached ??= reason;
      handle?.detach(reason);
    },
  };
}
