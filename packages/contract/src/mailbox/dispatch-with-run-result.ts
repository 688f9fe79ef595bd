import { AwakenError } from '../errors/awaken-error';
import type { RunDispatch, RunDispatchResult } from './run-dispatch';

/**
 * The dispatch with `result` recorded at `at` (`MailboxStore.recordRunResult`, or `ack` with a
 * result): a later result replaces an earlier one completely, so a field the new result lacks
 * (`termination`, `response`, `error`) is removed. A result for another run → `validation_failed`.
 */
export function dispatchWithRunResult(
  dispatch: RunDispatch,
  result: RunDispatchResult,
  at: number,
): RunDispatch {
  if (result.runId !== dispatch.runId) {
    throw new AwakenError(
      'validation_failed',
      `run result is for run ${result.runId}, but dispatch ${dispatch.dispatchId} carries run ${dispatch.runId}`,
    );
  }
  const { termination: _t, runResponse: _r, runError: _e, ...kept } = dispatch;
  return {
    ...kept,
    dispatchInstanceId: result.dispatchInstanceId,
    runStatus: result.status,
    ...(result.termination === undefined ? {} : { termination: result.termination }),
    ...(result.response === undefined ? {} : { runResponse: result.response }),
    ...(result.error === undefined ? {} : { runError: result.error }),
    completedAt: at,
    updatedAt: at,
  };
}
