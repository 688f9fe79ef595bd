import type { DecisionRecord, ToolCallDecision } from '@awaken/contract';

/**
 * The decisions part of a session: the accepted decisions waiting for the next RESUME gate (stored
 * with each checkpoint), and the ids of every decision the run ever applied (its idempotency truth).
 */
export class DecisionQueue {
  pending: ToolCallDecision[];
  readonly applied: Set<string>;
  /** The audit trail: a record of every decision applied, stored with each checkpoint. */
  readonly records: DecisionRecord[];

  constructor(pending: ToolCallDecision[], applied: Iterable<string>, records: DecisionRecord[] = []) {
    this.pending = pending;
    this.applied = new Set(applied);
    this.records = records;
  }

  /** Takes every waiting decision (the gate applies or drops each). */
  take(): ToolCallDecision[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
