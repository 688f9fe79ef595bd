import type { RunControl } from '@awaken/contract';
import type { RunSession } from '../session/run-session';

/**
 * Reads the pending commands of the run's control inbox ([] without one) and applies the cancels
 * among them at once; decisions and input are left to the run's gates. `atGate`: a run's gate, which
 * skips the peek when nothing can have arrived since the last one found the inbox empty (see
 * InboxFreshness); every other reader peeks.
 */
export async function readControls(
  session: RunSession,
  options: { atGate?: boolean } = {},
): Promise<RunControl[]> {
  const inbox = session.services.inbox;
  if (!inbox || (options.atGate && session.inbox.unchanged)) return [];
  const controls = [...(await session.inbox.peek(() => inbox.peek(session.runId)))];
  applyCancels(session, controls);
  return controls;
}

/**
 * Removes commands this activation read and recorded. Best effort: a command left behind is
 * recognised as applied (its id is in the run record) and removed at a later gate.
 */
export async function removeControls(session: RunSession, ids: readonly string[]): Promise<void> {
  const inbox = session.services.inbox;
  if (!inbox || ids.length === 0) return;
  await inbox.remove(session.runId, ids).catch(() => {});
}

/**
 * Applies the cancel commands among `controls`: the run's signal aborts with the command's reason (a
 * cancel reaches running tools and the model call at once) and the id is kept for the terminal
 * checkpoint to record.
 */
function applyCancels(session: RunSession, controls: readonly RunControl[]): void {
  for (const control of controls) {
    if (control.kind !== 'cancel' || session.run.bookkeeping.controlIds.includes(control.id)) continue;
    session.activation.cancelIds.add(control.id);
    if (!session.activation.runController.signal.aborted) {
      session.activation.runController.abort(control.reason ?? 'run cancelled');
      session.activation.wake.notify();
    }
  }
}

/**
 * Watches the control inbox for one live run: a wake-up (subscription) or a tick peeks the inbox and
 * applies a cancel at once; decisions and input wait for the run's gates. Returns the function that
 * triggers a check (checks never overlap; one requested meanwhile runs after).
 */
export function createControlWatch(session: RunSession): () => void {
  let running = false;
  let again = false;
  const check = () => {
    if (!session.services.inbox) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void readControls(session)
      .catch(() => {
        // a failed peek is retried at the next wake-up, tick or gate
      })
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          check();
        }
      });
  };
  return check;
}

/** Ids of applied cancels are recorded at the terminal checkpoint. */
export function recordCancels(session: RunSession): string[] {
  const ids = [...session.activation.cancelIds].filter(
    (id) => !session.run.bookkeeping.controlIds.includes(id),
  );
  session.run.bookkeeping.controlIds.push(...ids);
  return [...session.activation.cancelIds];
}

/** True when the control inbox holds a decision this run has not applied yet (a cancel is applied). */
async function hasInboxDecisions(session: RunSession): Promise<boolean> {
  const controls = await readControls(session);
  return controls.some(
    (control) => control.kind === 'decision' && !session.decisions.applied.has(control.decision.decisionId),
  );
}

/** Parks a waiting run until a decision arrives, the run is cancelled or the activation detaches. */
export async function waitForDecision(session: RunSession): Promise<void> {
  while (
    !session.activation.runController.signal.aborted &&
    !session.activation.halt &&
    session.decisions.pending.length === 0
  ) {
    const woken = session.activation.wake.wait();
    if (await hasInboxDecisions(session)) return;
    // a waiting ticket that expires wakes the run then: its next activation resolves it `expired`
    const expiresAt = earliestExpiry(session);
    if (expiresAt !== undefined && expiresAt <= session.now()) return;
    const timer =
      expiresAt === undefined
        ? undefined
        : setTimeout(() => session.activation.wake.notify(), expiresAt - session.now());
    try {
      await woken;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The earliest `expiresAt` of the tickets the batch waits on. */
function earliestExpiry(session: RunSession): number | undefined {
  let earliest: number | undefined;
  for (const call of session.batch.calls) {
    const at = call.status === 'suspended' ? call.ticket?.expiresAt : undefined;
    if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
  }
  return earliest;
}
