import type { AgentEvent, RunLease, RunRecord, ToolCallDecisionInput } from '@awaken/contract';
import type { OnSuspend, RunHandle, RunResult } from '../types';
import { submitDecisions } from './decisions';
import { createEventChannel } from './event-channel';
import type { SessionPlumbing } from './load-session';
import { createRunHandle } from './run-handle';
import { driveRun } from './run-driver';
import { applyCancels, createControlWatch, peekControls } from './run-controls';
import { createRunOwnership } from './run-ownership';
import { rejectAll, resultOf } from './run-result';
import type { RunSession, RuntimeServices } from './run-session';
import { createWakeSignal } from './wake-signal';

/** A run executing in this runtime, registered synchronously when started (before it is loaded). */
export interface LiveRun {
  cancel(reason: string): void;
  detach(reason: string): void;
  result: Promise<RunResult>;
  /** Settles once the activation ended and its lease was released. */
  idle: Promise<void>;
}

export interface StartOptions {
  resumed: boolean;
  onSuspend: OnSuspend;
  signal?: AbortSignal;
  decisions?: ToolCallDecisionInput[];
  lease?: RunLease;
}

/**
 * Starts the activations of one run: takes its lease while loading, applies the given decisions,
 * watches the control inbox (a cancel from any process aborts the run at once), renews the lease
 * while it runs and releases it when the last activation ended.
 */
export function startActivation(
  services: RuntimeServices,
  live: Map<string, LiveRun>,
  ids: { runId: string; threadId: string },
  load: (plumbing: SessionPlumbing) => Promise<RunSession | RunRecord>,
  run: StartOptions,
): RunHandle {
  const ownership = createRunOwnership(services, ids.runId, run.lease);
  const channel = createEventChannel<AgentEvent>();
  const wake = createWakeSignal();
  const runController = new AbortController();
  let session: RunSession | undefined;
  let detachReason: string | undefined;
  const abort = (reason: unknown) => {
    if (!runController.signal.aborted)
      runController.abort(typeof reason === 'string' ? reason : 'run cancelled');
    wake.notify();
  };
  const detach = (reason: string) => {
    detachReason ??= reason;
    session?.activation.requestDetach(detachReason);
  };
  if (run.signal?.aborted) abort(run.signal.reason);
  else run.signal?.addEventListener('abort', () => abort(run.signal?.reason), { once: true });
  let threadId = ids.threadId;
  const loaded = load({ services, channel, wake, runController, ownership }).then((found) => {
    threadId = found.threadId;
    if ('services' in found) {
      session = found;
      if (detachReason !== undefined) found.activation.requestDetach(detachReason);
    }
    return found;
  });
  const receipts = loaded.then(async (found) => {
    const decisions = run.decisions ?? [];
    if (!('services' in found)) return rejectAll(decisions, 'run_finished', `run ${found.runId} is finished`);
    return decisions.length > 0 ? submitDecisions(found, decisions) : [];
  });
  let markIdle: () => void = () => {};
  const idle = new Promise<void>((resolve) => {
    markIdle = resolve;
  });
  // a run() reusing the id of a live run fails at createRun; it must not take over the live entry
  const registered = !live.has(ids.runId);
  const result = (async () => {
    let unsubscribe: (() => Promise<void>) | undefined;
    try {
      const found = await loaded;
      if (!('services' in found)) return resultOf(found);
      await receipts;
      const check = createControlWatch(found);
      if (services.inbox) {
        unsubscribe = await services.inbox.subscribe(found.runId, () => {
          wake.notify();
          check();
        });
      }
      ownership.keepAlive({ onLost: (error) => found.activation.loseLease(error), onTick: check });
      applyCancels(found, await peekControls(found));
      try {
        return await driveRun(found, { resumed: run.resumed, onSuspend: run.onSuspend });
      } finally {
        found.activation.live = false;
      }
    } catch (error) {
      channel.close(error);
      throw error;
    } finally {
      if (registered) live.delete(ids.runId);
      await ownership.release();
      markIdle();
      channel.close();
      await unsubscribe?.().catch(() => {});
    }
  })();
  if (registered) live.set(ids.runId, { cancel: abort, detach, result, idle });
  return createRunHandle({
    runId: ids.runId,
    threadId: () => threadId,
    channel,
    result,
    receipts,
    async decide(decisions) {
      const found = await loaded;
      if (!('services' in found)) return rejectAll(decisions, 'run_finished', `run ${ids.runId} is finished`);
      if (!found.activation.live) {
        return found.run.status === 'done'
          ? rejectAll(decisions, 'run_finished', `run ${ids.runId} is finished`)
          : rejectAll(
              decisions,
              'not_live',
              `run ${ids.runId} has no live activation here; deliver decisions with runtime.resumeRun(runId, { decisions })`,
            );
      }
      return submitDecisions(found, decisions);
    },
    cancel: (reason) => abort(reason ?? 'run cancelled'),
    detach: (reason) => detach(reason ?? 'detached by the caller'),
  });
}
