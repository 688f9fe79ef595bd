import { AwakenError, type TerminationReason, isTerminalToolCallStatus } from '@awaken/contract';
import type { RunResult } from '../types';
import { commitCheckpoint, waitingState } from './checkpoint';
import { applyDecisions } from './decisions';
import { batchIsOpen, endsWithFinalAnswer, lastAssistantText, loadBatch } from './history';
import { baseContext, runHooks } from './plugin-host';
import type { RunSession } from './run-session';
import { runInferenceStep, runStepEnd } from './run-step';
import { emitStateSnapshotIfChanged } from './state-snapshot';
import { hasRunnableCalls, runToolRound } from './tool-round';
import { cancelCall } from './tool-pipeline';

type SettleOutcome = 'none' | 'settled' | 'suspended' | TerminationReason;

/**
 * Finishes the open batch: RESUME gate (apply decisions), tool round, commit, RESUME gate again,
 * until no call can make progress. `suspended` when calls still wait for decisions.
 */
async function settleBatch(session: RunSession): Promise<SettleOutcome> {
  if (!batchIsOpen(session.batch)) return 'none';
  while (true) {
    const applied = await applyDecisions(session);
    if (session.signal.aborted) return session.abortTermination();
    if (hasRunnableCalls(session)) {
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
    const outcome = await settleBatch(session);
    if (typeof outcome === 'object') return outcome;
    if (outcome === 'suspended') return { type: 'suspended' };
    if (session.signal.aborted) return session.abortTermination();
    const stepPending = session.bookkeeping.stepEnded < session.record.steps && session.batch.length > 0;
    if (stepPending) {
      const stopped = await runStepEnd(session, true);
      if (stopped) return stopped;
    }
    if (endsWithFinalAnswer(session)) return { type: 'natural_end' };
    const ended = await runInferenceStep(session);
    if (ended) return ended;
  }
}

function startDeadline(session: RunSession): () => void {
  session.activationStartedAt = session.now();
  session.deadlineFired = false;
  const timeout = session.agent.stopConditions.find((spec) => spec.type === 'timeout');
  if (!timeout) {
    session.signal = session.runController.signal;
    return () => {};
  }
  const deadline = new AbortController();
  session.signal = AbortSignal.any([session.runController.signal, deadline.signal]);
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

function classify(session: RunSession, error: unknown): TerminationReason {
  if (session.signal.aborted) return session.abortTermination();
  const message = error instanceof Error ? error.message : String(error);
  return AwakenError.isInstance(error)
    ? { type: 'error', message, code: error.code }
    : { type: 'error', message };
}

function cancelReasonOf(termination: TerminationReason): string {
  switch (termination.type) {
    case 'cancelled':
      return termination.reason ?? 'the run was cancelled';
    case 'blocked':
      return `the run was blocked: ${termination.reason}`;
    case 'error':
      return `the run failed: ${termination.message}`;
    case 'stopped':
      return `the run stopped: ${termination.code}`;
    default:
      return `the run ended: ${termination.type}`;
  }
}

/** RunEnd on every exit path, then the `run_finished` checkpoint, then `run_finish`. */
async function finish(session: RunSession, initial: TerminationReason, hooks: boolean): Promise<RunResult> {
  let termination = initial;
  const suspended = termination.type === 'suspended';
  try {
    if (!suspended) {
      for (const call of session.batch) {
        if (!isTerminalToolCallStatus(call.status))
          await cancelCall(session, call, cancelReasonOf(termination));
      }
    }
    await session.closeOpenStep();
    session.setStatus(suspended ? 'waiting' : 'done');
    session.record = { ...session.record, termination };
    if (!suspended) session.record.finishedAt = session.now();
    if (hooks) {
      await runHooks(session, 'runEnd', {
        ...baseContext(session, 'RunEnd'),
        termination,
        status: session.status,
      });
    }
  } catch (error) {
    termination = classify(session, error);
  }
  if (termination.type === 'error') {
    if (session.status !== 'done') session.setStatus('done');
    session.record = { ...session.record, termination };
  }
  try {
    await session.closeOpenStep();
    await commitCheckpoint(session, 'run_finished', { eventsAfter: termination.type === 'error' ? 2 : 1 });
  } catch (error) {
    if (termination.type !== 'error') {
      termination = classify(session, error);
      if (session.status !== 'done') session.setStatus('done');
    }
  }
  if (termination.type === 'error') {
    await session.emit({ type: 'error', code: termination.code ?? 'internal', message: termination.message });
  }
  const response = lastAssistantText(session);
  await session.emit({
    type: 'run_finish',
    status: session.status,
    termination,
    ...(response === undefined ? {} : { response }),
    usage: session.record.usage,
  });
  if (session.status === 'done') await session.services.eventLog?.finish(session.runId);
  const waiting = session.status === 'waiting' ? waitingState(session) : undefined;
  return {
    runId: session.runId,
    threadId: session.threadId,
    status: session.status,
    termination,
    ...(response === undefined ? {} : { response }),
    usage: session.record.usage,
    steps: session.record.steps,
    ...(waiting ? { waiting } : {}),
  };
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

/** One activation of a run, from `run_start` to `run_finish`. */
export async function activate(session: RunSession, resumed: boolean): Promise<RunResult> {
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
