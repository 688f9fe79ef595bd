import { type ToolCallState, type ToolCallStatus, isTerminalToolCallStatus } from '@awaken/contract';
import { resumeGate } from '../decisions/resume-gate';
import type { RunSession } from '../session/run-session';
import { executeCall, gateCall, processCall } from '../tools/tool-pipeline';

/**
 * Sequential executor: one call at a time in call order; stops at the first suspension (later calls
 * stay `new` and run once it resolves) and at a block that ends the run.
 */
async function runSequential(session: RunSession): Promise<void> {
  for (const state of session.batch.calls) {
    if (isTerminalToolCallStatus(state.status)) continue;
    // a detach stops the round between calls; the calls that ran are checkpointed first
    if (state.status === 'suspended' || session.activation.signal.aborted || session.activation.halt) return;
    await processCall(session, state);
    if ((state.status as ToolCallStatus) === 'suspended' || session.batch.blocked !== undefined) return;
  }
}

/**
 * Parallel executor with the concurrent model: every call is gated in order (a gate sees the
 * outcomes of earlier calls), allowed calls run at once, and a decision arriving while calls still
 * run replays its call immediately instead of waiting for the round to end.
 */
async function runParallel(session: RunSession): Promise<void> {
  const allowed: ToolCallState[] = [];
  const replays: ToolCallState[] = [];
  for (const state of session.batch.calls) {
    if (state.status === 'resuming') replays.push(state);
    if (state.status !== 'new' && state.status !== 'running') continue;
    if (await gateCall(session, state)) allowed.push(state);
    if (session.batch.blocked !== undefined || session.activation.signal.aborted) return;
  }
  const running = new Set<Promise<void>>();
  const start = (task: Promise<void>) => {
    const tracked = task.finally(() => running.delete(tracked));
    running.add(tracked);
  };
  for (const state of allowed) start(executeCall(session, state));
  for (const state of replays) start(processCall(session, state));
  let woke = session.decisions.pending.length > 0;
  try {
    while (running.size > 0) {
      if (woke && !session.activation.signal.aborted && !session.activation.halt) {
        for (const state of await resumeGate(session)) {
          if (state.status === 'resuming') start(processCall(session, state));
        }
        // the last calls may have settled meanwhile: racing an empty set would wait for ever
        if (running.size === 0) break;
      }
      woke =
        (await Promise.race([
          Promise.race(running).then(() => false),
          session.activation.wake.wait().then(() => true),
        ])) || session.decisions.pending.length > 0;
    }
  } catch (error) {
    // a hook or store failure ends the run, but only once the calls still executing have settled:
    // a body that is still running must not be recorded `cancelled` (its side effect may complete)
    await Promise.allSettled([...running]);
    throw error;
  }
}

/** Runs one tool round of the current batch with the agent's executor. */
export async function runToolRound(session: RunSession): Promise<void> {
  if (session.agent.toolExecution === 'parallel') await runParallel(session);
  else await runSequential(session);
}
