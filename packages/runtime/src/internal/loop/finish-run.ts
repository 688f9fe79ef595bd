import {
  type AgentEventInput,
  AwakenError,
  type TerminationReason,
  isTerminalToolCallStatus,
  toAwakenError,
} from '@awaken/contract';
import type { RunResult } from '../../types';
import { commitCheckpoint, waitingState } from '../checkpoint/commit-checkpoint';
import { runHooks } from '../plugins/plugin-host';
import { recordCancels, removeControls } from '../inbox/run-controls';
import type { RunSession } from '../session/run-session';
import { cancelCall } from '../tools/call-outcome';
import { cancelChildren } from '../subagents/cancel-children';

/** How often the terminal checkpoint is tried before the activation gives up (a retryable failure). */
const FINAL_CHECKPOINT_ATTEMPTS = 3;

/** The termination for a failure (a cancel or timeout in progress wins); a lost lease ends nothing. */
export function classify(session: RunSession, error: unknown): TerminationReason {
  if (session.activation.signal.aborted) return session.activation.abortTermination();
  const message = error instanceof Error ? error.message : String(error);
  return AwakenError.isInstance(error)
    ? { type: 'error', message, code: error.code }
    : { type: 'error', message };
}

/** True when a failure should interrupt the activation (left resumable) instead of ending the run. */
export function interrupts(session: RunSession, error: unknown): error is AwakenError {
  if (session.activation.signal.aborted || !AwakenError.isInstance(error)) return false;
  const { transientModelErrors, transientStoreErrors } = session.services;
  if (error.code === 'model_transient') return transientModelErrors === 'interrupt';
  return error.code === 'store_failure' && error.retryable && transientStoreErrors === 'interrupt';
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

/**
 * The `run_finished` checkpoint, retried after a retryable failure (a store blip). With a joint
 * writer the run's last events (and the log's finish) go in its atomic write (`end`).
 */
async function commitFinal(
  session: RunSession,
  end: { events(): AgentEventInput[]; finish: boolean },
): Promise<void> {
  const eventsAfter = end.events().length;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await commitCheckpoint(session, 'run_finished', { eventsAfter, end });
      return;
    } catch (error) {
      const retryable = AwakenError.isInstance(error) && error.retryable && !session.activation.lost;
      if (!retryable || attempt >= FINAL_CHECKPOINT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

/**
 * The terminal checkpoint could not be written: the store still holds the run at its last checkpoint,
 * so no `run_finish` is emitted and the log stays open; the next activation (resumeRun / cancelRun,
 * in any process) finishes the run. An `error` event tells readers why this activation stopped.
 */
async function abandon(session: RunSession, error: unknown): Promise<never> {
  if (session.activation.lost) throw session.activation.halt;
  const failure = toAwakenError(error);
  await session.events.emit({ type: 'error', code: failure.code, message: failure.message }).catch(() => {});
  throw failure;
}

/** The run's last events: the `error` of a failed run, then `run_finish`. */
function lastEvents(session: RunSession, termination: TerminationReason): AgentEventInput[] {
  const response = session.run.lastAssistantText();
  const { usage } = session.run.record;
  return [
    ...(termination.type === 'error'
      ? [{ type: 'error' as const, code: termination.code ?? 'internal', message: termination.message }]
      : []),
    {
      type: 'run_finish' as const,
      status: session.run.status,
      termination,
      ...(response === undefined ? {} : { response }),
      usage,
    },
  ];
}

/**
 * RunEnd on every exit path, then the `run_finished` checkpoint, then `run_finish`. `run_finish` and
 * the end of the event log follow a stored outcome only: with a joint writer they are written in the
 * checkpoint's own atomic write (none of them without it); without one, if anything after the
 * checkpoint fails, the result rejects and the next `resumeRun` completes the log from the stored
 * record.
 */
export async function finishRun(
  session: RunSession,
  initial: TerminationReason,
  options: { hooks: boolean },
): Promise<RunResult> {
  session.activation.throwIfLost();
  let termination = initial;
  const suspended = termination.type === 'suspended';
  try {
    if (!suspended) {
      await cancelChildren(session, cancelReasonOf(termination));
      for (const call of session.batch.calls) {
        if (!isTerminalToolCallStatus(call.status))
          await cancelCall(session, call, cancelReasonOf(termination));
      }
    }
    // with a joint writer the step_end goes out with the final checkpoint (or an event before it)
    await session.events.closeOpenStep({ withNext: true });
    session.run.setStatus(suspended ? 'waiting' : 'done');
    session.run.record = { ...session.run.record, termination };
    if (!suspended) session.run.record.finishedAt = session.now();
    if (options.hooks) {
      await runHooks(session, 'runEnd', { termination, status: session.run.status });
    }
  } catch (error) {
    session.activation.throwIfLost();
    // a store failure that may pass leaves the run at its last checkpoint, as in the loop
    if (interrupts(session, error)) return abandon(session, error);
    termination = classify(session, error);
  }
  if (termination.type === 'error') {
    if (session.run.status !== 'done') session.run.setStatus('done');
    session.run.record = { ...session.run.record, termination };
  }
  const cancelIds = session.run.status === 'done' ? recordCancels(session) : [];
  const end = {
    events: () => lastEvents(session, termination),
    finish: session.run.status === 'done',
  };
  try {
    await session.events.closeOpenStep({ withNext: true });
    await commitFinal(session, end);
  } catch (error) {
    return abandon(session, error);
  }
  // without a joint writer: the last events and the log's finish follow the stored outcome
  if (!session.joint) {
    for (const event of end.events()) await session.events.emit(event);
    if (end.finish) {
      try {
        await session.services.eventLog?.finish(session.runId, { fence: session.activation.fence });
      } catch (error) {
        throw session.activation.writeFailed(error);
      }
    }
  }
  if (session.run.status === 'done') await removeControls(session, cancelIds);
  const response = session.run.lastAssistantText();
  const { usage } = session.run.record;
  const waiting = session.run.status === 'waiting' ? waitingState(session) : undefined;
  return {
    runId: session.runId,
    threadId: session.threadId,
    status: session.run.status,
    termination,
    ...(response === undefined ? {} : { response }),
    usage,
    steps: session.run.record.steps,
    ...(waiting ? { waiting } : {}),
  };
}
