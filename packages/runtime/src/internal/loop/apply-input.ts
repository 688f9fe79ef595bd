import { commitCheckpoint } from '../checkpoint/commit-checkpoint';
import { readControls, removeControls } from '../inbox/run-controls';
import type { RunSession } from '../session/run-session';

/**
 * Adds user input injected through the control inbox to the history, at a step boundary (never
 * between a tool call and its result), and checkpoints it with the ids it applied before the inbox
 * forgets them. Returns true when input was added: the model answers it next.
 */
export async function applyInput(session: RunSession): Promise<boolean> {
  if (!session.services.inbox) return false;
  const controls = await readControls(session, { atGate: true });
  const applied = session.run.bookkeeping.controlIds;
  const inputs = controls.filter((control) => control.kind === 'input');
  const fresh = inputs.filter((control) => !applied.includes(control.id));
  if (fresh.length === 0) {
    await removeControls(
      session,
      inputs.map((control) => control.id),
    );
    return false;
  }
  for (const control of fresh) {
    if (control.kind !== 'input') continue;
    for (const message of control.messages) session.run.addMessage({ ...message });
    applied.push(control.id);
  }
  await commitCheckpoint(session, 'user_message');
  await removeControls(
    session,
    inputs.map((control) => control.id),
  );
  return true;
}
