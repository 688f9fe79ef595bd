import { persistentRunState, persistentThreadState } from './plugin-host';
import type { RunSession } from './run-session';

/** The persistent plugin state (run- and thread-scoped keys) that clients see in `state_snapshot`. */
export function persistentState(session: RunSession): Record<string, unknown> {
  return { ...persistentRunState(session), ...(persistentThreadState(session) ?? {}) };
}

/**
 * Emits `state_snapshot` when the persistent plugin state differs from the last snapshot of this
 * activation. The first check of an activation emits whenever the state is non-empty, so hot and
 * cold activations of one run produce the same snapshots.
 */
export async function emitStateSnapshotIfChanged(session: RunSession): Promise<void> {
  const state = persistentState(session);
  const text = JSON.stringify(state);
  const previous = session.events.lastSnapshot;
  session.events.lastSnapshot = text;
  const unchanged = previous === undefined ? Object.keys(state).length === 0 : previous === text;
  if (!unchanged) await session.events.emit({ type: 'state_snapshot', state });
}
