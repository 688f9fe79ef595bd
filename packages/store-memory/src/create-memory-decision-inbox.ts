import { EventEmitter } from 'node:events';
import {
  AwakenError,
  type DecisionInbox,
  type ToolCallDecision,
  parseWith,
  toolCallDecisionSchema,
} from '@awaken/contract';
import { clone } from './internal/clone';

interface RunInbox {
  pending: ToolCallDecision[];
  /** Every decision ever put for the run, by id: idempotency outlives a drain. */
  seen: Map<string, ToolCallDecision>;
}

/**
 * A {@link DecisionInbox} in process memory. Guarantees those of the contract's TSDoc: `put` is
 * idempotent by `decisionId` for the life of the store (the same id again → `'duplicate'`; the same id
 * for another tool call → `conflict`), a second decision for a call that has one pending → `conflict`,
 * `drain` hands each decision to exactly one caller in arrival order, and subscribers of the run are
 * called after each `'stored'` put (a throwing listener does not affect the put). Wake-ups reach only
 * this process: share a Redis inbox between processes.
 */
export function createMemoryDecisionInbox(): DecisionInbox {
  const inboxes = new Map<string, RunInbox>();
  const wakeUps = new EventEmitter();
  wakeUps.setMaxListeners(0);

  const inboxOf = (runId: string): RunInbox => {
    let inbox = inboxes.get(runId);
    if (inbox === undefined) {
      inbox = { pending: [], seen: new Map() };
      inboxes.set(runId, inbox);
    }
    return inbox;
  };

  return {
    async put(runId, input) {
      const decision = parseWith(toolCallDecisionSchema, input, 'decision');
      const inbox = inboxOf(runId);
      const earlier = inbox.seen.get(decision.decisionId);
      if (earlier !== undefined) {
        if (earlier.toolCallId === decision.toolCallId) return 'duplicate';
        throw new AwakenError(
          'conflict',
          `decision ${decision.decisionId} was already given for tool call ${earlier.toolCallId}`,
          { details: { runId, decisionId: decision.decisionId, toolCallId: earlier.toolCallId } },
        );
      }
      const pending = inbox.pending.find((other) => other.toolCallId === decision.toolCallId);
      if (pending !== undefined) {
        throw new AwakenError(
          'conflict',
          `tool call ${decision.toolCallId} of run ${runId} already has pending decision ${pending.decisionId}`,
          { details: { runId, toolCallId: decision.toolCallId, pendingDecisionId: pending.decisionId } },
        );
      }
      inbox.seen.set(decision.decisionId, decision);
      inbox.pending.push(decision);
      for (const listener of wakeUps.listeners(runId)) {
        try {
          (listener as () => void)();
        } catch {
          // A subscriber's failure is its own; the decision is stored either way.
        }
      }
      return 'stored';
    },

    async drain(runId) {
      const inbox = inboxes.get(runId);
      if (inbox === undefined) return [];
      const drained = inbox.pending;
      inbox.pending = [];
      return clone(drained);
    },

    async peek(runId) {
      return clone(inboxes.get(runId)?.pending ?? []);
    },

    async subscribe(runId, listener) {
      const handler = () => listener();
      wakeUps.on(runId, handler);
      return async () => {
        wakeUps.off(runId, handler);
      };
    },
  };
}
