import type { ToolCallDecision } from '../hitl/decision';

/**
 * A run's durable inbox of decisions. A decision is written here first, then the process executing
 * the run is woken and drains the inbox at its resume gates.
 *
 * Guarantees: `put` is durable before it resolves and idempotent by `decisionId` for the life of the run, also after a drain (the same decision
 * again → `'duplicate'`, stored once); a different decision for a call that already has a pending one
 * → `conflict`; `drain` removes and returns the pending decisions in arrival order, each handed to
 * exactly one drainer; `subscribe` calls the listener after each successful `put` for that run, in
 * any process sharing the store.
 */
export interface DecisionInbox {
  put(runId: string, decision: ToolCallDecision): Promise<'stored' | 'duplicate'>;
  drain(runId: string): Promise<ToolCallDecision[]>;
  /** Pending decisions without removing them. */
  peek(runId: string): Promise<ToolCallDecision[]>;
  /** Resolves once listening is active; returns an unsubscribe function. */
  subscribe(runId: string, listener: () => void): Promise<() => Promise<void>>;
}
