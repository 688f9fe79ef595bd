import { RUNTIME_STATE_PATH, runAskersOf } from '@awaken/contract';
import type { RunSession } from '../session/run-session';

/** Bound on the askers a run remembers besides its starter (the oldest are kept: they asked first). */
const MAX_ASKERS = 100;

/**
 * Records `subject` as one who asked for what the run does next (it sent the run input, or approved
 * a call with arguments of its own): stored by the run's next checkpoint, which is before any
 * question that follows is stored, so a four-eyes ticket never sees the asker as an approver.
 */
export function addAsker(session: RunSession, subject: string | undefined): void {
  if (subject === undefined || subject === '') return;
  const askers = session.run.bookkeeping.askers ?? [];
  if (askers.includes(subject) || askers.length >= MAX_ASKERS) return;
  session.run.bookkeeping.askers = [...askers, subject];
}

/** Everyone who asked for what the run does, as this session holds it (`runAskersOf`). */
export function liveAskers(session: RunSession): ReadonlySet<string> {
  return new Set(
    runAskersOf({
      context: session.run.record.context,
      state: { [RUNTIME_STATE_PATH]: { askers: session.run.bookkeeping.askers ?? [] } },
    }),
  );
}
