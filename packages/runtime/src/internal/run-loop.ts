import { AwakenError, type TerminationReason } from '@awaken/contract';
import type { RunResult } from '../types';
import { applyInput } from './apply-input';
import { commitCheckpoint, emitStateSnapshotIfChanged } from './checkpoint';
import { classify, finishRun } from './finish-run';
import { runInference } from './inference';
import { afterInference, beforeInference, commitAssistantTurn, stepStart } from './inference-step';
import { runHooks } from './plugin-host';
import { resumeGate } from './resume-gate';
import type { RunSession } from './run-session';
import { stepEnd } from './stop-conditions';
import { loadBatch } from './tool-batch';
import { runToolRound } from './tool-round';

/**
 * One activation of a run, as the canonical loop:
 *
 *   RunStart → commit the user message →
 *   loop { RESUME gate → StepStart → BeforeInference → model → AfterInference → commit the assistant
 *          turn → tool round → commit the tool results → RESUME gate → StepEnd + stop conditions }
 *   → RunEnd (finishRun: the terminal checkpoint, then `run_finish`).
 *
 * A halted activation (detached, or its lease taken over) stops without RunEnd: the run continues
 * elsewhere. A resumed activation first finishes the step its run stopped in.
 */
export async function runLoop(session: RunSession, resumed: boolean): Promise<RunResult> {
  session.activation.throwIfHalted();
  const timeout = session.agent.stopConditions.find((spec) => spec.type === 'timeout');
  const stopDeadline = session.activation.startDeadline(session.now(), timeout?.seconds);
  session.events.lastSnapshot = undefined;
  try {
    const { threadId, agent, run } = session;
    await session.events.emit({ type: 'run_start', threadId, agentId: agent.id, resumed });
    if (run.status === 'created' && session.activation.runController.signal.aborted) {
      return await finishRun(session, session.activation.abortTermination(), { hooks: false });
    }
    let termination: TerminationReason;
    try {
      await runStart(session, resumed);
      await commitUserMessage(session);
      termination = await loop(session);
    } catch (error) {
      termination = await failure(session, error);
    }
    return await finishRun(session, termination, { hooks: true });
  } finally {
    stopDeadline();
  }
}

async function loop(session: RunSession): Promise<TerminationReason> {
  const ended = await resumeOpenStep(session);
  if (ended) return ended;
  while (true) {
    // user input injected through the inbox joins at a step boundary, never inside a tool round
    await applyInput(session);
    if (session.run.endsWithFinalAnswer()) return { type: 'natural_end' };
    session.activation.throwIfHalted();
    await stepStart(session);
    const draft = await beforeInference(session);
    if ('skipped' in draft)
      return endStepEarly(session, { type: 'behavior_requested', detail: draft.skipped });
    const response = await runInference(session, draft);
    const turn = await afterInference(session, response);
    const calls = await commitAssistantTurn(session, response, turn);
    if (turn.terminated !== undefined) {
      return endStepEarly(session, { type: 'behavior_requested', detail: turn.terminated });
    }
    if (calls.length === 0) return endStepEarly(session, { type: 'natural_end' });
    const stopped = await finishStep(session);
    if (stopped) return stopped;
  }
}

/** RunStart: the status leaves `created`, the RunStart hooks run, plugin state is shown. */
async function runStart(session: RunSession, resumed: boolean): Promise<void> {
  const { run } = session;
  if (run.status === 'created') {
    run.setStatus('running');
    run.record = { ...run.record, startedAt: session.now() };
  }
  await runHooks(session, 'runStart', { resumed });
  await emitStateSnapshotIfChanged(session);
}

/** Commits the request input (the `user_message` checkpoint), once per run. */
async function commitUserMessage(session: RunSession): Promise<void> {
  const { run } = session;
  if (run.bookkeeping.inputCommitted) return;
  const input = run.bookkeeping.input ?? [];
  if (input.length > 0) {
    const from = run.messages.length + 1;
    run.record = { ...run.record, inputRange: { from, to: from + input.length - 1 } };
  }
  for (const message of input) run.addMessage(message, 0);
  run.bookkeeping.inputCommitted = true;
  run.bookkeeping.input = undefined;
  await commitCheckpoint(session, 'user_message');
}

/**
 * A resumed run continues the step it stopped in (suspended or interrupted before its StepEnd): the
 * step's frame reopens, so the calls resumed here belong to a `step_start` … `step_end` like any
 * other, and the step finishes as usual.
 */
async function resumeOpenStep(session: RunSession): Promise<TerminationReason | undefined> {
  session.batch.calls = loadBatch(session);
  const { record, bookkeeping } = session.run;
  if (bookkeeping.stepEnded < record.steps)
    await session.events.emit({ type: 'step_start', step: record.steps });
  return finishStep(session);
}

/**
 * The rest of a step once its assistant turn is committed: tool round → commit the tool results →
 * RESUME gate, again until no call can move; then StepEnd and the stop conditions. Returns a
 * termination when the run stops here (`suspended` when calls wait for decisions).
 */
async function finishStep(session: RunSession): Promise<TerminationReason | undefined> {
  const { activation, batch, run } = session;
  activation.throwIfHalted();
  const settled = await settleBatch(session);
  if (settled) return settled;
  if (activation.signal.aborted) return activation.abortTermination();
  const stepOpen = run.bookkeeping.stepEnded < run.record.steps && batch.calls.length > 0;
  return stepOpen ? stepEnd(session, { evaluate: true }) : undefined;
}

async function settleBatch(session: RunSession): Promise<TerminationReason | undefined> {
  const { activation, batch } = session;
  if (!batch.isOpen()) return undefined;
  while (true) {
    activation.throwIfHalted();
    const resumed = await resumeGate(session);
    if (activation.signal.aborted) return activation.abortTermination();
    if (!batch.hasRunnable(session.agent.toolExecution === 'parallel')) {
      if (resumed.length > 0 || batch.isUnflushed())
        await commitCheckpoint(session, 'tool_results_committed');
      return batch.hasSuspended() ? { type: 'suspended' } : undefined;
    }
    activation.throwIfHalted();
    await runToolRound(session);
    await commitCheckpoint(session, 'tool_results_committed');
    if (batch.blocked !== undefined) return { type: 'blocked', reason: batch.blocked };
    if (activation.signal.aborted) return activation.abortTermination();
  }
}

/** A step that ends the run before its tool round: its StepEnd runs without the stop conditions. */
async function endStepEarly(session: RunSession, termination: TerminationReason): Promise<TerminationReason> {
  await stepEnd(session, { evaluate: false });
  return termination;
}

/**
 * A failure inside the loop. A halted activation stops here (a detached one still closes its step;
 * one fenced out can write nothing); a transient model failure with `transientModelErrors:
 * 'interrupt'` stops like a crash, leaving the run resumable; anything else ends the run.
 */
async function failure(session: RunSession, error: unknown): Promise<TerminationReason> {
  const { activation, events } = session;
  if (activation.halt) {
    if (!activation.lost) await events.closeOpenStep().catch(() => {});
    throw activation.halt;
  }
  if (interrupts(session, error)) {
    await events.closeOpenStep();
    await events.emit({ type: 'error', code: error.code, message: error.message });
    throw error;
  }
  return classify(session, error);
}

/** True when a failure should interrupt the activation (left resumable) instead of ending the run. */
function interrupts(session: RunSession, error: unknown): error is AwakenError {
  return (
    session.services.transientModelErrors === 'interrupt' &&
    !session.activation.signal.aborted &&
    AwakenError.hasCode(error, 'model_transient')
  );
}
