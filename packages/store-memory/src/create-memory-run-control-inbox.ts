import { EventEmitter } from 'node:events';
import {
  type RunControl,
  type RunControlInbox,
  decisionTarget,
  isResentRunControl,
  jsonCopy,
  offerTrustedView,
  reusedRunControlId,
  runControlInboxInputs,
  secondPendingDecision,
  trustedStoreInputs,
} from '@awaken/contract';
import { clone } from './internal/clone';
import { type MemoryStoreOptions, storeClock } from './internal/clock';

interface RunInbox {
  /** Pending entries by id, in arrival order (a Map keeps insertion order). */
  pending: Map<string, RunControl>;
  /** Decision target (`decisionTarget`: its call, or its ticket) → id of its pending decision. */
  calls: Map<string, string>;
  /** When the run finished and its inbox goes with its event log (store clock). */
  expiresAt?: number;
}

/** A memory {@link RunControlInbox} whose per-run data can be set to expire (with the run's event log). */
export interface ExpiringRunControlInbox extends RunControlInbox {
  /** Drops the run's inbox at `expiresAt` on the store's clock (what `createMemoryStores` wires to `finish`). */
  expireRun(runId: string, expiresAt: number): void;
}

/**
 * A {@link RunControlInbox} in process memory. Guarantees those of the contract's TSDoc: `put` is
 * idempotent by id while the entry is pending (a re-send → `'duplicate'`; a reused id for another
 * command or target → `conflict`), a second pending decision for one target (its tool call, or its
 * ticket when it names no call) → `conflict`,
 * `remove` takes out exactly the given ids, and subscribers of the run are called after each
 * `'stored'` put (a throwing listener does not affect the put). Inputs are validated and copied by the
 * contract's `runControlInboxInputs`. `createMemoryStores` drops a finished run's inbox with its event
 * log. Wake-ups reach only this process: share a Redis inbox between processes.
 */
export function createMemoryRunControlInbox(options: MemoryStoreOptions = {}): RunControlInbox {
  return createExpiringRunControlInbox(options);
}

/** The memory inbox with its `expireRun` hook, as `createMemoryStores` wires it to the event log. */
export function createExpiringRunControlInbox(options: MemoryStoreOptions = {}): ExpiringRunControlInbox {
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
      inbox = { pending: new Map(), calls: new Map() };
      inboxes.set(runId, inbox);
    }
    return inbox;
  };

  const build = (inputs: typeof runControlInboxInputs): ExpiringRunControlInbox => ({
    async put(input, given) {
      const { runId, control } = inputs.put.parse({ runId: input, control: given });
      const inbox = inboxOf(runId);
      const earlier = inbox.pending.get(control.id);
      if (earlier !== undefined) {
        if (isResentRunControl(earlier, control)) return 'duplicate';
        throw reusedRunControlId(runId, control.id);
      }
      if (control.kind === 'decision') {
        const target = decisionTarget(control.decision);
        const pendingId = inbox.calls.get(target);
        if (pendingId !== undefined) throw secondPendingDecision(runId, target, pendingId);
        inbox.calls.set(target, control.id);
      }
      inbox.pending.set(control.id, control);
      for (const listener of wakeUps.listeners(runId)) {
        try {
          (listener as () => void)();
        } catch {
          // A subscriber's failure is its own; the command is stored either way.
        }
      }
      return 'stored';
    },

    async peek(input) {
      const { runId } = inputs.peek.parse({ runId: input });
      return clone([...(live(runId)?.pending.values() ?? [])]);
    },

    async remove(input, given) {
      const { runId, ids } = inputs.remove.parse({ runId: input, ids: given });
      const inbox = live(runId);
      if (inbox === undefined) return;
      for (const id of ids) {
        const control = inbox.pending.get(id);
        if (control === undefined) continue;
        inbox.pending.delete(id);
        if (control.kind === 'decision') inbox.calls.delete(decisionTarget(control.decision));
      }
      // An empty inbox is forgotten, unless it carries the run's expiry (a later put keeps it).
      if (inbox.pending.size === 0 && inbox.expiresAt === undefined) inboxes.delete(runId);
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
  });
  return offerTrustedView(
    build(runControlInboxInputs),
    build(trustedStoreInputs(runControlInboxInputs, jsonCopy)),
  );
}
