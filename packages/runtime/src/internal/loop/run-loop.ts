import type { TerminationReason, ToolCallState } from '@awaken/contract';
import type { RunResult } from '../../types';
import { applyInput } from './apply-input';
import { commitCheckpoint, emitStateSnapshotIfChanged } from '../checkpoint/commit-checkpoint';
import { classify, finishRun, interrupts } from './finish-run';
import { runInference } from './run-inference';
import { afterInference, beforeInference, commitAssistantTurn, stepStart } from './step-phases';
import { runHooks } from '../plugins/plugin-host';
import { resumeGate } from '../decisions/resume-gate';
import type { RunSession } from '../session/run-session';
import { stepEnd } from './stop-conditions';
import { loadBatch } from '../tools/load-batch';
import { suspendCallsInDoubt } from '../tools/indeterminate-calls';
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
    session.events.post({ type: 'run_start', threadId, agentId: agent.id, resumed });
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
  const resumed = await continueOpenStep(session);
  if (resumed) return resumed;
  while (true) {
    session.activation.throwIfHalted();
    if (session.activation.signal.aborted) return session.activation.abortTermination();
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
    if (calls.length === 0) {
      const ended = await endStepEarly(session, { type: 'natural_end' });
      // input that arrived while the model answered is answered too, before the run ends
      if (await applyInput(session, { last: true })) continue;
      return ended;
    }
    const settled = await toolRounds(session, []);
    if (settled) return settled;
    const stopped = await stepEnd(session, { evaluate: true });
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
 * A run resumed mid-step (it suspended, or was interrupted before its StepEnd) continues that step:
 * its frame reopens, so the calls resumed here belong to a `step_start` … `step_end` like any other;
 * the RESUME gate takes the decisions that arrived while it waited; the step then finishes as usual.
 */
async function continueOpenStep(session: RunSession): Promise<TerminationReason | undefined> {
  const { activation, batch, run } = session;
  batch.calls = loadBatch(session);
  if (run.bookkeeping.stepEnded >= run.record.steps) return undefined;
  session.events.post({ type: 'step_start', step: run.record.steps });
  // a tool that must never run twice, found running with no result: ask, never re-run
  await suspendCallsInDoubt(session);
  let resumed: ToolCallState[] = [];
  if (batch.isOpen()) {
    activation.throwIfHalted();
    resumed = await resumeGate(session);
  }
  const settled = await toolRounds(session, resumed);
  if (settled) return settled;
  return batch.calls.length > 0 ? stepEnd(session, { evaluate: true }) : undefined;
}

/**
 * tool round → commit the tool results → RESUME gate, again while calls can run (a decision resumed
 * one, or the calls behind a resolved suspension may go). Returns `suspended` when calls still wait
 * for decisions, or the termination when the run stops here; undefined when the batch is settled.
 */
async function toolRounds(
  session: RunSession,
  resumed: ToolCallState[],
): Promise<TerminationReason | undefined> {
  const { activation, batch } = session;
  let changed = resumed.length > 0;
  const parallel = session.agent.toolExecution === 'parallel';
  while (batch.expired === undefined && batch.hasRunnable(parallel)) {
    if (activation.signal.aborted) return activation.abortTermination();
    activation.throwIfHalted();
    await runToolRound(session);
    await commitCheckpoint(session, 'tool_results_committed');
    if (batch.blocked !== undefined) return { type: 'blocked', reason: batch.blocked };
    if (batch.expired !== undefined) return expiryEnd(batch.expired);
    if (activation.signal.aborted) return activation.abortTermination();
    activation.throwIfHalted();
    changed = (await resumeGate(session)).length > 0;
  }
  if (activation.signal.aborted) return activation.abortTermination();
  if (changed || batch.isUnflushed()) await commitCheckpoint(session, 'tool_results_committed');
  if (batch.expired !== undefined) return expiryEnd(batch.expired);
  return batch.hasSuspended() ? { type: 'suspended' } : undefined;
}

/** The run ends because a ticket expired and the agent says an expiry ends the run. */
function expiryEnd(detail: string): TerminationReason {
  return { type: 'stopped', code: 'approval_expired', detail };
}

/** A step that ends the run before its tool round: its StepEnd runs without the stop conditions. */
async function endStepEarly(session: RunSession, termination: TerminationReason): Promise<TerminationReason> {
  await stepEnd(session, { evaluate: false });
  return termination;
}

/**
 * A failure inside the loop. A halted activation stops here (a detached one still closes its step;
 * one fenced out can write nothing); a transient model failure with `transientModelErrors:
 * 'interrupt'`, or a retryable store failure with `transientStoreErrors: 'interrupt'`, stops like a
 * crash, leaving the run resumable at its last checkpoint; anything else ends the run.
 */
async function failure(session: RunSession, error: unknown): Promise<TerminationReason> {
  const { activation, events } = session;
  if (activation.halt) {
    if (!activation.lost) await events.closeOpenStep().catch(() => {});
    throw activation.halt;
  }
  if (interrupts(session, error)) {
    // the store may still be unreachable: these writes are best effort, the error is what is thrown
    await events.closeOpenStep().catch(() => {});
    await events.emit({ type: 'error', code: error.code, message: error.message }).catch(() => {});
    throw error;
  }
  return classify(session, error);
}
