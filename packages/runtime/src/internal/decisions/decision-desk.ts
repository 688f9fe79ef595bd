import type { RunControlInbox } from '@awaken/contract';

/** How many accepted decision ids a desk remembers (oldest forgotten first). */
const REMEMBERED = 10_000;

/**
 * The decisions one process delivers through one inbox: those for a run go one at a time, and the
 * ids this process got `accepted` are remembered. Why: once the run applied a decision and took it
 * out of the inbox, the same id may be put again (the inbox contract), so a caller holding a copy of
 * the run from before the apply would be told `accepted` a second time. Taking turns per run, reading
 * the run inside the turn and remembering what was accepted makes "one `accepted` among any number of
 * identical decisions" exact within a process; across processes the window is the time between the
 * judged read and the put.
 */
export class DecisionDesk {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly accepted = new Map<string, true>();

  /** Runs `turn` after every earlier turn for `runId` on this desk settled. */
  inTurn<T>(runId: string, turn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(runId) ?? Promise.resolve();
    const result = previous.then(turn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(runId, tail);
    void tail.then(() => {
      if (this.tails.get(runId) === tail) this.tails.delete(runId);
    });
    return result;
  }

  wasAccepted(runId: string, decisionId: string): boolean {
    return this.accepted.has(`${runId}\u0000${decisionId}`);
  }

  remember(runId: string, decisionId: string): void {
    this.accepted.set(`${runId}\u0000${decisionId}`, true);
    if (this.accepted.size > REMEMBERED) {
      const oldest = this.accepted.keys().next().value;
      if (oldest !== undefined) this.accepted.delete(oldest);
    }
  }
}

const desks = new WeakMap<RunControlInbox, DecisionDesk>();

/** The desk of an inbox instance (one per store instance, so per process). */
export function deskOf(inbox: RunControlInbox): DecisionDesk {
  let desk = desks.get(inbox);
  if (!desk) {
    desk = new DecisionDesk();
    desks.set(inbox, desk);
  }
  return desk;
}
