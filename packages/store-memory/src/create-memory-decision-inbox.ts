import { EventEmitter } from 'node:events';
import {
  AwakenError,
  type DecisionInbox,
  type ToolCallDecision,
  decisionInboxInputs as inputs,
} from '@awaken/contract';
import { clone } from './internal/clone';
import { type MemoryStoreOptions, storeClock } from './internal/clock';

interface RunInbox {
  pending: ToolCallDecision[];
  /** Every decision ever put for the run, by id: idempotency outlives a drain. */
  seen: Map<string, ToolCallDecision>;
  /** When the run finished and its inbox goes with its event log (store clock). */
  expiresAt?: number;
}

/** A memory {@link DecisionInbox} whose per-run data can be set to expire (with the run's event log). */
export interface MemoryDecisionInbox extends DecisionInbox {
  /** Drops the run's inbox (pending decisions and remembered ids) at `expiresAt` on the store's clock. */
  expireRun(runId: string, expiresAt: number): void;
}

/**
 * A {@link DecisionInbox} in process memory. Guarantees those of the contract's TSDoc: `put` is
 * idempotent by `decisionId` for the life of the run's inbox (the same id again → `'duplicate'`; the
 * same id for another tool call → `conflict`), a second decision for a call that has one pending →
 * `conflict`, `drain` hands each decision to exactly one caller in arrival order, and subscribers of
 * the run are called after each `'stored'` put (a throwing listener does not affect the put). Inputs
 * are validated and copied by the contract's schemas. `createMemoryStores` drops a finished run's
 * inbox with its event log. Wake-ups reach only this process: share a Redis inbox between processes.
 */
export function createMemoryDecisionInbox(options: MemoryStoreOptions = {}): MemoryDecisionInbox {
  const clock = storeClock(options);
  const inboxes = new Map<string, RunInbox>();
  /** Runs whose inbox expires, swept at most once a second so memory does not grow with finished runs. */
  const expiring = new Set<string>();
  let lastSweep = Number.NEGATIVE_INFINITY;
  const wakeUps = new EventEmitter();
  wakeUps.setMaxListeners(0);

  /** The run's inbox, or undefined once it expired (dropping it then). */
  const live = (runId: string): RunInbox | undefined => {
    const inbox = inboxes.get(runId);
    if (inbox?.expiresAt !== undefined && clock() >= inbox.expiresAt) {
      inboxes.delete(runId);
      expiring.delete(runId);
      return undefined;
    }
    return inbox;
  };

  const inboxOf = (runId: string): RunInbox => {
    let inbox = live(runId);
    if (inbox === undefined) {
      inbox = { pending: [], seen: new Map() };
      inboxes.set(runId, inbox);
    }
    return inbox;
  };

  return {
    async put(runId, input) {
      const { decision, ...run } = inputs.put.parse({ runId, decision: input });
      const inbox = inboxOf(run.runId);
      const earlier = inbox.seen.get(decision.decisionId);
      if (earlier !== undefined) {
        if (earlier.toolCallId === decision.toolCallId) return 'duplicate';
        throw new AwakenError(
          'conflict',
          `decision ${decision.decisionId} was already given for tool call ${earlier.toolCallId}`,
          { details: { runId: run.runId, decisionId: decision.decisionId, toolCallId: earlier.toolCallId } },
        );
      }
      const pending = inbox.pending.find((other) => other.toolCallId === decision.toolCallId);
      if (pending !== undefined) {
        throw new AwakenError(
          'conflict',
          `tool call ${decision.toolCallId} of run ${run.runId} already has pending decision ${pending.decisionId}`,
          {
            details: {
              runId: run.runId,
              toolCallId: decision.toolCallId,
              pendingDecisionId: pending.decisionId,
            },
          },
        );
      }
      inbox.seen.set(decision.decisionId, decision);
      inbox.pending.push(decision);
      for (const listener of wakeUps.listeners(run.runId)) {
        try {
          (listener as () => void)();
        } catch {
          // A subscriber's failure is its own; the decision is stored either way.
        }
      }
      return 'stored';
    },

    async drain(input) {
      const inbox = live(inputs.drain.parse({ runId: input }).runId);
      if (inbox === undefined) return [];
      const drained = inbox.pending;
      inbox.pending = [];
      return clone(drained);
    },

    async peek(input) {
      return clone(live(inputs.peek.parse({ runId: input }).runId)?.pending ?? []);
    },

    async subscribe(input, given) {
      const { runId, listener } = inputs.subscribe.parse({ runId: input, listener: given });
      const handler = () => listener();
      wakeUps.on(runId, handler);
      return async () => {
        wakeUps.off(runId, handler);
      };
    },

    expireRun(runId, expiresAt) {
      const at = clock();
      if (at - lastSweep >= 1_000) {
        lastSweep = at;
        for (const expired of [...expiring]) live(expired);
      }
      inboxOf(runId).expiresAt = expiresAt;
      expiring.add(runId);
    },
  };
}
