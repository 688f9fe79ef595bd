import { AwakenError, type TerminationReason, isTerminalToolCallStatus } from '@awaken/contract';
import type { RunResult } from '../types';
import { applyInput } from './apply-input';
import { commitCheckpoint } from './checkpoint';
import { applyDecisions } from './decisions';
import { classify, finish } from './finish-run';
import { batchIsOpen, endsWithFinalAnswer, loadBatch } from './history';
import { baseContext, runHooks } from './plugin-host';
import type { RunSession } from './run-session';
import { runInferenceStep, runStepEnd } from './run-step';
import { emitStateSnapshotIfChanged } from './state-snapshot';
import { hasRunnableCalls, runToolRound } from './tool-round';

type SettleOutcome = 'none' | 'settled' | 'suspended' | TerminationReason;

/**
 * Finishes the open batch: RESUME gate (apply decisions), tool round, commit, RESUME gate again,
 * until no call can make progress. `suspended` when calls still wait for decisions.
 */
async function settleBatch(session: RunSession): Promise<SettleOutcome> {
  if (!batchIsOpen(session.batch)) return 'none';
  while (true) {
    session.throwIfHalted();
    const applied = await applyDecisions(session);
    if (session.signal.aborted) return session.abortTermination();
    if (hasRunnableCalls(session)) {
      session.throwIfHalted();
      await runToolRound(session);
      await commitCheckpoint(session, 'tool_results_committed');
      if (session.blocked !== undefined) return { type: 'blocked', reason: session.blocked };
      if (session.signal.aborted) return session.abortTermination();
      continue;
    }
    const unflushed =
      batchIsOpen(session.batch) && session.batch.every((call) => isTerminalToolCallStatus(call.status));
    if (applied.length > 0 || unflushed) await commitCheckpoint(session, 'tool_results_committed');
    if (session.batch.some((call) => call.status === 'suspended')) return 'suspended';
    return 'settled';
  }
}

async function runLoop(session: RunSession): Promise<TerminationReason> {
  session.batch = loadBatch(session);
  // a step that suspended (or was interrupted) before its StepEnd continues in this activation: its
  // frame reopens, so the calls resumed here belong to a step_start … step_end like any other
  if (session.bookkeeping.stepEnded < session.record.steps) {
    await session.emit({ type: 'step_start', step: session.record.steps });
  }
  while (true) {
    session.throwIfHalted();
    const outcome = await settleBatch(session);
    if (typeof outcome === 'object') return outcome;
    if (outcome === 'suspended') return { type: 'suspended' };
    if (session.signal.aborted) return session.abortTermination();
    const stepPending = session.bookkeeping.stepEnded < session.record.steps && session.batch.length > 0;
    if (stepPending) {
      const stopped = await runStepEnd(session, true);
      if (stopped) return stopped;
    }
    await applyInput(session);
    if (endsWithFinalAnswer(session)) return { type: 'natural_end' };
    session.throwIfHalted();
    const ended = await runInferenceStep(session);
    if (ended) return ended;
  }
}

function startDeadline(session: RunSession): () => void {
  session.activationStartedAt = session.now();
  session.deadlineFired = false;
  const base = [session.runController.signal, session.haltController.signal];
  const timeout = session.agent.stopConditions.find((spec) => spec.type === 'timeout');
  if (!timeout) {
    session.signal = AbortSignal.any(base);
    return () => {};
  }
  const deadline = new AbortController();
  session.signal = AbortSignal.any([...base, deadline.signal]);
  const timer = setTimeout(() => {
    session.deadlineFired = true;
    deadline.abort(new AwakenError('timeout', `run exceeded its ${timeout.seconds} s timeout`));
  }, timeout.seconds * 1000);
  return () => clearTimeout(timer);
}

/** True when a failure should interrupt the activation (left resumable) instead of ending the run. */
function interrupts(session: RunSession, error: unknown): error is AwakenError {
  return (
    session.services.transientModelErrors === 'interrupt' &&
    !session.signal.aborted &&
    AwakenError.hasCode(error, 'model_transient')
  );
}

/** Commits the request input (the user_message checkpoint) once per run. */
async function commitInput(session: RunSession): Promise<void> {
  const input = session.bookkeeping.input ?? [];
  if (input.length > 0) {
    session.record = {
      ...session.record,
      inputRange: { from: session.messages.length + 1, to: session.messages.length + input.length },
    };
  }
  for (const message of input) session.addMessage(message, 0);
  session.bookkeeping.inputCommitted = true;
  session.bookkeeping.input = undefined;
  await commitCheckpoint(session, 'user_message');
}

/**
 * One activation of a run, from `run_start` to `run_finish`. A halted activation (detached, or its
 * lease taken over) stops without RunEnd or a terminal checkpoint: the run continues elsewhere.
 */
export async function activate(session: RunSession, resumed: boolean): Promise<RunResult> {
  session.throwIfHalted();
  const stopDeadline = startDeadline(session);
  session.lastStateSnapshot = undefined;
  try {
    await session.emit({ type: 'run_start', threadId: session.threadId, agentId: session.agent.id, resumed });
    if (session.status === 'created' && session.runController.signal.aborted) {
      return await finish(session, session.abortTermination(), false);
    }
    let termination: TerminationReason;
    try {
      if (session.status === 'created') {
        session.setStatus('running');
        session.record = { ...session.record, startedAt: session.now() };
      }
      await runHooks(session, 'runStart', { ...baseContext(session, 'RunStart'), resumed });
      await emitStateSnapshotIfChanged(session);
      if (!session.bookkeeping.inputCommitted) await commitInput(session);
      termination = await runLoop(session);
    } catch (error) {
      if (session.halt) {
        // a detached activation still frames its step; one fenced out can write nothing
        if (!session.lost) await session.closeOpenStep().catch(() => {});
        throw session.halt;
      }
      if (interrupts(session, error)) {
        await session.closeOpenStep();
        await session.emit({ type: 'error', code: error.code, message: error.message });
        throw error;
      }
      termination = classify(session, error);
    }
    return await finish(session, termination, true);
  } finally {
    stopDeadline();
  }
}
