import { commitCheckpoint } from '../checkpoint/commit-checkpoint';
import { readControls, removeControls } from '../inbox/run-controls';
import type { RunSession } from '../session/run-session';
import { addAsker } from '../decisions/run-askers';
import { runStarterOf } from '@awaken/contract';

/**
 * Adds user input injected through the control inbox to the history, at a step boundary (never
 * between a tool call and its result), and checkpoints it with the ids it applied before the inbox
 * forgets them. The sender of each input (its `context.caller`) becomes an asker of the run, by the
 * same checkpoint. Returns true when input was added: the model answers it next. `last`: the gate the
 * run ends after when it adds nothing, which peeks even when the inbox looks unchanged.
 */
export async function applyInput(session: RunSession, options: { last?: boolean } = {}): Promise<boolean> {
  if (!session.services.inbox) return false;
  // the gate before the run ends always peeks: a put whose wake-up is still in flight (pub/sub
  // delivers it after the put returned) must not be left behind by a run that answered without it
  const controls = await readControls(session, { atGate: !options.last });
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
    // whoever sent the input asks for what follows: a four-eyes ticket it leads to refuses them
    if (control.context) addAsker(session, runStarterOf({ context: control.context }));
    applied.push(control.id);
  }
  await commitCheckpoint(session, 'user_message');
  await removeControls(
    session,
    inputs.map((control) => control.id),
  );
  return true;
}
