import type { RunFailure, RunResult } from '../../types';
import { type CancelRunContext, settledLive } from './cancel-run';
import { RunFailureReason } from '../runtime/run-failure';

/**
 * Ends a run with the `error` termination of `failure` and resolves with the stored result once the
 * store holds it done. Like a cancel it goes through an activation holding the run's lease, so the
 * terminal checkpoint is fenced: a run live in this runtime is aborted through its signal, a run
 * nobody holds is ended by a cold activation. Unlike `cancelRun` it never reaches into another
 * process: a run held elsewhere is left untouched (`run_busy`, nothing queued), since its holder is
 * the one deciding how it ends. A run already done resolves with its stored result, unchanged.
 */
export async function failRun(
  context: CancelRunContext,
  runId: string,
  failure: RunFailure,
): Promise<RunResult> {
  const reason = new RunFailureReason(failure);
  const entry = context.live.get(runId);
  if (entry) {
    entry.fail(reason);
    return settledLive(context, runId, entry);
  }
  return context.resumeAborted(runId, reason).result;
}
