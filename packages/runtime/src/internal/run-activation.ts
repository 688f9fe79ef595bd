import { AwakenError, type TerminationReason } from '@awaken/contract';
import type { RunResult } from '../types';
import { applyInput } from './apply-input';
import { commitCheckpoint } from './checkpoint';
import { applyDecisions } from './decisions';
import { classify, finish } from './finish-run';
import { endsWithFinalAnswer } from './history';
import { loadBatch } from './tool-batch';
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
  if (!session.batch.isOpen()) return 'none';
  while (true) {
    session.activation.throwIfHalted();
    const applied = await applyDecisions(session);
    if (session.activation.signal.aborted) return session.activation.abortTermination();
    if (hasRunnableCalls(session)) {
      session.activation.throwIfHalted();
      await runToolRound(session);
      await commitCheckpoint(session, 'tool_results_committed');
      if (session.batch.blocked !== undefined) return { type: 'blocked', reason: session.batch.blocked };
      if (session.activation.signal.aborted) return session.activation.abortTermination();
      continue;
    }
    const unflushed = session.batch.isUnflushed();
    if (applied.length > 0 || unflushed) await commitCheckpoint(session, 'tool_results_committed');
    if (session.batch.calls.some((call) => call.status === 'suspended')) return 'suspended';
    return 'settled';
  }
}

async function runLoop(session: RunSession): Promise<TerminationReason> {
  session.batch.calls = loadBatch(session);
  // a step that suspended (or was interrupted) before its StepEnd continues in this activation: its
  // frame reopens, so the calls resumed here belong to a step_start … step_end like any other
  if (session.run.bookkeeping.stepEnded < session.run.record.steps) {
    await session.events.emit({ type: 'step_start', step: session.run.record.steps });
  }
  while (true) {
    session.activation.throwIfHalted();
    const outcome = await settleBatch(session);
    if (typeof outcome === 'object') return outcome;
    if (outcome === 'suspended') return { type: 'suspended' };
    if (session.activation.signal.aborted) return session.activation.abortTermination();
    const stepPending =
      session.run.bookkeeping.stepEnded < session.run.record.steps && session.batch.calls.length > 0;
    if (stepPending) {
      const stopped = await runStepEnd(session, true);
      if (stopped) return stopped;
    }
    await applyInput(session);
    if (endsWithFinalAnswer(session)) return { type: 'natural_end' };
    session.activation.throwIfHalted();
    const ended = await runInferenceStep(session);
    if (ended) return ended;
  }
}

function startDeadline(session: RunSession): () => void {
  const timeout = session.agent.stopConditions.find((spec) => spec.type === 'timeout');
  return session.activation.startDeadline(session.now(), timeout?.seconds);
}

/** True when a failure should interrupt the activation (left resumable) instead of ending the run. */
function interrupts(session: RunSession, error: unknown): error is AwakenError {
  return (
    session.services.transientModelErrors === 'interrupt' &&
    !session.activation.signal.aborted &&
    AwakenError.hasCode(error, 'model_transient')
  );
}

/** Commits the request input (the user_message checkpoint) once per run. */
async function commitInput(session: RunSession): Promise<void> {
  const input = session.run.bookkeeping.input ?? [];
  if (input.length > 0) {
    session.run.record = {
      ...session.run.record,
      inputRange: { from: session.run.messages.length + 1, to: session.run.messages.length + input.length },
    };
  }
  for (const message of input) session.run.addMessage(message, 0);
  session.run.bookkeeping.inputCommitted = true;
  session.run.bookkeeping.input = undefined;
  await commitCheckpoint(session, 'user_message');
}

/**
 * One activation of a run, from `run_start` to `run_finish`. A halted activation (detached, or its
 * lease taken over) stops without RunEnd or a terminal checkpoint: the run continues elsewhere.
 */
export async function activate(session: RunSession, resumed: boolean): Promise<RunResult> {
  session.activation.throwIfHalted();
  const stopDeadline = startDeadline(session);
  session.events.lastSnapshot = undefined;
  try {
    await session.events.emit({
      type: 'run_start',
      threadId: session.threadId,
      agentId: session.agent.id,
      resumed,
    });
    if (session.run.status === 'created' && session.activation.runController.signal.aborted) {
      return await finish(session, session.activation.abortTermination(), false);
    }
    let termination: TerminationReason;
    try {
      if (session.run.status === 'created') {
        session.run.setStatus('running');
        session.run.record = { ...session.run.record, startedAt: session.now() };
      }
      await runHooks(session, 'runStart', { ...baseContext(session, 'RunStart'), resumed });
      await emitStateSnapshotIfChanged(session);
      if (!session.run.bookkeeping.inputCommitted) await commitInput(session);
      termination = await runLoop(session);
    } catch (error) {
      if (session.activation.halt) {
        // a detached activation still frames its step; one fenced out can write nothing
        if (!session.activation.lost) await session.events.closeOpenStep().catch(() => {});
        throw session.activation.halt;
      }
      if (interrupts(session, error)) {
        await session.events.closeOpenStep();
        await session.events.emit({ type: 'error', code: error.code, message: error.message });
        throw error;
      }
      termination = classify(session, error);
    }
    return await finish(session, termination, true);
  } finally {
    stopDeadline();
  }
}
