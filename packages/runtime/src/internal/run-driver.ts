import type { OnSuspend, RunResult } from '../types';
import { activate } from './run-activation';
import { applyCancels, peekControls } from './run-controls';
import type { RunSession } from './run-session';

/** True when the control inbox holds a decision this run has not applied yet (a cancel is applied). */
async function hasInboxDecisions(session: RunSession): Promise<boolean> {
  const controls = await peekControls(session);
  applyCancels(session, controls);
  return controls.some(
    (control) => control.kind === 'decision' && !session.decisions.applied.has(control.decision.decisionId),
  );
}

/** Parks a waiting run until a decision arrives, the run is cancelled or the activation detaches. */
async function waitForWake(session: RunSession): Promise<void> {
  while (
    !session.activation.runController.signal.aborted &&
    !session.activation.halt &&
    session.decisions.pending.length === 0
  ) {
    const woken = session.activation.wake.wait();
    if (await hasInboxDecisions(session)) return;
    await woken;
  }
}

/**
 * Runs activations until the run is done, or — with `onSuspend: 'return'` — until it waits. With
 * `wait`, a waiting run stays live: a decision (or a cancel) starts the next activation, which opens
 * with `run_start { resumed: true }` on the same event stream.
 */
export async function driveRun(
  session: RunSession,
  options: { resumed: boolean; onSuspend: OnSuspend },
): Promise<RunResult> {
  let resumed = options.resumed;
  while (true) {
    const result = await activate(session, resumed);
    if (result.status !== 'waiting' || options.onSuspend === 'return') return result;
    await waitForWake(session);
    session.activation.throwIfHalted();
    resumed = true;
  }
}
