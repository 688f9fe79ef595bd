import type { ToolCallDecision } from '../hitl/decision';

/**
 * A run's durable inbox of decisions. A decision is written here first, then the process executing
 * the run is woken and drains the inbox at its resume gates.
 *
 * Guarantees: `put` is durable before it resolves and idempotent by `decisionId` for the life of the
 * run's inbox, also after a drain (the same decision again → `'duplicate'`, stored once); the same id
 * for another tool call, or a different decision for a call that already has a pending one →
 * `conflict`; `drain` removes and returns the pending decisions in arrival order, each handed to
 * exactly one drainer; `subscribe` calls the listener after each successful `put` for that run, in
 * any process sharing the store. A finished run's inbox (pending decisions and remembered ids) is
 * dropped with its event log, `ttlMs` after `RunEventLog.finish`, when both share a backend.
 *
 * Input (validated by `decisionInboxInputs`, `validation_failed` naming the field): run ids are
 * non-empty well-formed strings, decisions valid `ToolCallDecision`s whose `result` is stored in its
 * JSON form. Puts and drains are idempotent per request (a re-sent drain returns what the first took).
 */
export interface DecisionInbox {
  put(runId: string, decision: ToolCallDecision): Promise<'stored' | 'duplicate'>;
  drain(runId: string): Promise<ToolCallDecision[]>;
  /** Pending decisions without removing them. */
  peek(runId: string): Promise<ToolCallDecision[]>;
  /** Resolves once listening is active; returns an unsubscribe function. */
  subscribe(runId: string, listener: () => void): Promise<() => Promise<void>>;
}
