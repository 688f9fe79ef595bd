import { EventEmitter } from 'node:events';
import {
  AwakenError,
  type RunControl,
  type RunControlInbox,
  decisionTarget,
  parseWith,
  runControlIdsSchema,
  runControlSchema,
} from '@awaken/contract';
import { clone } from './internal/clone';

interface RunInbox {
  /** Pending entries by id, in arrival order (a Map keeps insertion order). */
  pending: Map<string, RunControl>;
  /** Decision target (`decisionTarget`: its call, or its ticket) → id of its pending decision. */
  calls: Map<string, string>;
}

function conflict(message: string, details: Record<string, unknown>): AwakenError {
  return new AwakenError('conflict', message, { details });
}

/** The same command again (a re-send) rather than a different one under a reused id. */
function sameCommand(earlier: RunControl, control: RunControl): boolean {
  if (earlier.kind !== control.kind) return false;
  return earlier.kind !== 'decision' || control.kind !== 'decision'
    ? true
    : decisionTarget(earlier.decision) === decisionTarget(control.decision);
}

/**
 * A {@link RunControlInbox} in process memory. Guarantees those of the contract's TSDoc: `put` is
 * idempotent by id while the entry is pending (a re-send → `'duplicate'`; a reused id for another
 * command or target → `conflict`), a second pending decision for one target (its tool call, or its
 * ticket when it names no call) → `conflict`,
 * `remove` takes out exactly the given ids, and subscribers of the run are called after each
 * `'stored'` put (a throwing listener does not affect the put). Wake-ups reach only this process:
 * share a Redis inbox between processes.
 */
export function createMemoryRunControlInbox(): RunControlInbox {
  const inboxes = new Map<string, RunInbox>();
  const wakeUps = new EventEmitter();
  wakeUps.setMaxListeners(0);

  const inboxOf = (runId: string): RunInbox => {
    let inbox = inboxes.get(runId);
    if (inbox === undefined) {
      inbox = { pending: new Map(), calls: new Map() };
      inboxes.set(runId, inbox);
    }
    return inbox;
  };

  return {
    async put(runId, input) {
      const control = clone(parseWith(runControlSchema, input, 'run control'));
      const inbox = inboxOf(runId);
      const earlier = inbox.pending.get(control.id);
      if (earlier !== undefined) {
        if (sameCommand(earlier, control)) return 'duplicate';
        throw conflict(`run control ${control.id} of run ${runId} is pending as another command`, {
          runId,
          id: control.id,
        });
      }
      if (control.kind === 'decision') {
        const target = decisionTarget(control.decision);
        const pendingId = inbox.calls.get(target);
        if (pendingId !== undefined) {
          throw conflict(`${target} of run ${runId} already has pending decision ${pendingId}`, {
            runId,
            target,
            pendingDecisionId: pendingId,
          });
        }
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

    async peek(runId) {
      return clone([...(inboxes.get(runId)?.pending.values() ?? [])]);
    },

    async remove(runId, input) {
      const ids = parseWith(runControlIdsSchema, input, 'ids');
      const inbox = inboxes.get(runId);
      if (inbox === undefined) return;
      for (const id of ids) {
        const control = inbox.pending.get(id);
        if (control === undefined) continue;
        inbox.pending.delete(id);
        if (control.kind === 'decision') inbox.calls.delete(decisionTarget(control.decision));
      }
      if (inbox.pending.size === 0) inboxes.delete(runId);
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
