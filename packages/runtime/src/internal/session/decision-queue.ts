import type { ToolCallDecision } from '@awaken/contract';

/**
 * The decisions part of a session: the accepted decisions waiting for the next RESUME gate (stored
 * with each checkpoint), and the ids of every decision the run ever applied (its idempotency truth).
 */
export class DecisionQueue {
  pending: ToolCallDecision[];
  readonly applied: Set<string>;

  constructor(pending: ToolCallDecision[], applied: Iterable<string>) {
    this.pending = pending;
    this.applied = new Set(applied);
  }

  /** Takes every waiting decision (the gate applies or drops each). */
  take(): ToolCallDecision[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
