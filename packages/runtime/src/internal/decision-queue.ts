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

  /** True when the decision id was applied or is waiting. */
  knows(decisionId: string): boolean {
    return this.applied.has(decisionId) || this.pending.some((queued) => queued.decisionId === decisionId);
  }

  /** True when a decision for the call waits for the gate. */
  waitsFor(toolCallId: string): boolean {
    return this.pending.some((queued) => queued.toolCallId === toolCallId);
  }

  /** Takes every waiting decision (the gate applies or drops each). */
  take(): ToolCallDecision[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
