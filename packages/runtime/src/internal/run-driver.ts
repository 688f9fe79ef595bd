import type { OnSuspend, RunResult } from '../types';
import { activate } from './run-activation';
import type { RunSession } from './run-session';

async function hasInboxDecisions(session: RunSession): Promise<boolean> {
  const inbox = session.services.decisionInbox;
  return inbox ? (await inbox.peek(session.runId)).length > 0 : false;
}

/** Parks a waiting run until a decision arrives or the run is cancelled. */
async function waitForWake(session: RunSession): Promise<void> {
  while (!session.runController.signal.aborted && session.queue.length === 0) {
    const woken = session.wake.wait();
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
    resumed = true;
  }
}
