import type {
  AgentEvent,
  DecisionReceipt,
  RunLease,
  RunRecord,
  ToolCallDecisionInput,
} from '@awaken/contract';
import type { OnSuspend, RunHandle, RunResult } from '../../types';
import { acceptDecisions } from '../decisions/accept-decisions';
import { commitCheckpoint } from '../checkpoint/commit-checkpoint';
import { createEventChannel } from '../session/event-channel';
import type { SessionPlumbing } from './load-session';
import { createRunHandle } from './run-handle';
import { runLoop } from '../loop/run-loop';
import { createControlWatch, readControls, waitForDecision } from '../inbox/run-controls';
import { type FencedAcquisition, createRunOwnership } from './run-ownership';
import { rejectAll, resultOf } from '../runtime/run-result';
import { readDecisionIds } from '../checkpoint/run-state-codec';
import type { RunSession, RuntimeServices } from '../session/run-session';
import { createWakeSignal } from '../session/activation';
import { releaseThreadState } from '../plugins/plugin-host';
import { RunFailureReason } from '../runtime/run-failure';

/** A run executing in this runtime, registered synchronously when started (before it is loaded). */
export interface LiveRun {
  cancel(reason: string): void;
  /** Aborts the run as `cancel` does; it ends with the `error` termination of this failure. */
  fail(reason: RunFailureReason): void;
  /** The handle's `decide`. */
  decide(decisions: ToolCallDecisionInput[]): Promise<DecisionReceipt[]>;
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
  /** What the joint acquisition that granted `lease` read and raised (see ResumeRunOptions.acquired). */
  acquired?: FencedAcquisition;
  /**
   * A child run this activation has just created, driven inline by its parent's activation: it does
   * not subscribe to its control inbox nor read it before the loop (nothing was put there yet that
   * the run must see first: it has no ticket, and a cancel of its parent reaches it through the
   * parent's signal), and its gates skip their peeks. The lease tick's check still peeks (a cancel
   * sent to the child itself from another process applies within a renewal period; from this one it
   * applies at once through the live entry) and so does the gate the run ends after (input sent to it
   * is answered before it ends). Saves a subscribe, an unsubscribe and a peek per child.
   */
  quietInbox?: boolean;
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
  const ownership = createRunOwnership(services, ids.runId, run.lease, run.acquired);
  const channel = createEventChannel<AgentEvent>();
  const wake = createWakeSignal();
  const runController = new AbortController();
  let session: RunSession | undefined;
  let detachReason: string | undefined;
  const abort = (reason: unknown) => {
    // a string is a cancel's reason; a RunFailureReason (failRun) ends the run with `error`
    const kept = typeof reason === 'string' || reason instanceof RunFailureReason;
    if (!runController.signal.aborted) runController.abort(kept ? reason : 'run cancelled');
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
    if (!('services' in found)) {
      const applied = readDecisionIds(found);
      return rejectAll(decisions, 'run_finished', `run ${found.runId} is finished`, applied);
    }
    return decisions.length > 0 ? acceptDecisions(found, decisions) : [];
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
      if (run.quietInbox) found.inbox.quiet();
      else if (services.inbox) {
        unsubscribe = await services.inbox.subscribe(found.runId, () => {
          found.inbox.noteWakeUp();
          wake.notify();
          check();
        });
        found.inbox.listening();
      }
      ownership.keepAlive({ onLost: (error) => found.activation.loseLease(error), onTick: check });
      if (!run.quietInbox) await readControls(found);
      try {
        // a run prepared by createRun starts here: its first activation is not a resumption
        const resumed = run.resumed && found.run.status !== 'created';
        return await driveRun(found, { resumed, onSuspend: run.onSuspend });
      } finally {
        found.activation.live = false;
      }
    } catch (error) {
      channel.close(error);
      throw error;
    } finally {
      if (registered) live.delete(ids.runId);
      if (session) releaseThreadState(session);
      await ownership.release();
      markIdle();
      channel.close();
      await unsubscribe?.().catch(() => {});
    }
  })();
  const handle = createRunHandle({
    runId: ids.runId,
    threadId: () => threadId,
    channel,
    result,
    receipts,
    loaded,
    cancel: (reason) => abort(reason ?? 'run cancelled'),
    detach: (reason) => detach(reason ?? 'detached by the caller'),
  });
  if (registered)
    live.set(ids.runId, { cancel: abort, fail: abort, decide: handle.decide, detach, result, idle });
  return handle;
}

/**
 * Runs activations until the run is done, or — with `onSuspend: 'return'` — until it waits. With
 * `wait`, a waiting run stays live: a decision (or a cancel) starts the next activation, which opens
 * with `run_start { resumed: true }` on the same event stream.
 */
async function driveRun(
  session: RunSession,
  options: { resumed: boolean; onSuspend: OnSuspend },
): Promise<RunResult> {
  let resumed = options.resumed;
  try {
    while (true) {
      const result = await runLoop(session, resumed);
      if (result.status !== 'waiting' || options.onSuspend === 'return') return result;
      await waitForDecision(session);
      session.activation.throwIfHalted();
      resumed = true;
    }
  } catch (error) {
    if (error === session.activation.halt) await keepAcceptedDecisions(session);
    throw error;
  }
}

/**
 * A detaching activation without an inbox stores the decisions it accepted but did not apply yet
 * (queued in the run record, as every checkpoint does), so the next activation applies them: an
 * accepted receipt is never dropped. With an inbox they are already there; a fenced-out activation
 * can write nothing.
 */
async function keepAcceptedDecisions(session: RunSession): Promise<void> {
  const { activation, decisions, services } = session;
  if (services.inbox || activation.lost || decisions.pending.length === 0) return;
  await commitCheckpoint(session, 'tool_results_committed');
}
