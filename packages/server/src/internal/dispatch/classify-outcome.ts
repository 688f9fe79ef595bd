import { AwakenError, assertNever, type RunDispatchResult, type RunRecord } from '@awaken/contract';
import type { RunResult } from '@awaken/runtime';
import { publicReason } from './public-reason';

/** How one activation of a claimed dispatch ended. */
export type ActivationOutcome =
  /** Nothing to execute: the run is done, or waits with nothing new in its inbox. */
  | { type: 'skipped'; record: RunRecord }
  /** The activation returned: the run waits or is done. */
  | { type: 'result'; result: RunResult }
  /** The run may not start yet: an earlier run of its thread retries first. */
  | { type: 'deferred'; retryAt: number; reason: string }
  /** The activation threw: the run was left where its last checkpoint put it. */
  | { type: 'failed'; error: unknown };

/** What to do with the dispatch. */
export type DispatchPlan =
  | { action: 'ack'; result?: Omit<RunDispatchResult, 'dispatchInstanceId'> }
  | { action: 'retry'; error: string; retryAfterMs?: number; retryAt?: number }
  | {
      action: 'dead_letter';
      error: string;
      result?: Omit<RunDispatchResult, 'dispatchInstanceId'>;
      /** The run is not done: end it with this reason so its record says why. */
      endReason?: string;
    };

/**
 * True for a failure that may pass when the same run is tried again later: a retryable error
 * (`model_transient`, a store blip, `run_busy` while another activation holds the run) or an
 * activation that was detached (its run lease was taken over) without ending the run.
 */
export function isTransient(error: unknown): boolean {
  if (!AwakenError.isInstance(error)) return false;
  return (
    error.retryable ||
    error.code === 'model_transient' ||
    error.code === 'run_busy' ||
    error.code === 'detached'
  );
}

function projected(result: RunResult): Omit<RunDispatchResult, 'dispatchInstanceId'> {
  return {
    runId: result.runId,
    status: result.status,
    termination: result.termination,
    ...(result.response === undefined ? {} : { response: result.response }),
    ...(result.termination.type === 'error' ? { error: result.termination.message } : {}),
  };
}

/**
 * The retry classification: a run that waits or ended is acked (a run that ended with `error` is a
 * permanent failure after exactly one execution: dead letter); a transient failure is retried with
 * backoff; any other failure is permanent: dead letter, and the run is ended with the reason.
 */
export function classifyOutcome(outcome: ActivationOutcome): DispatchPlan {
  switch (outcome.type) {
    case 'skipped':
      return {
        action: 'ack',
        result: {
          runId: outcome.record.runId,
          status: outcome.record.status,
          ...(outcome.record.termination ? { termination: outcome.record.termination } : {}),
        },
      };
    case 'result': {
      const result = projected(outcome.result);
      if (outcome.result.termination.type === 'error') {
        return { action: 'dead_letter', error: `run ended with error: ${result.error}`, result };
      }
      return { action: 'ack', result };
    }
    case 'deferred':
      return { action: 'retry', error: outcome.reason, retryAt: outcome.retryAt };
    case 'failed': {
      // our words only: the error itself (its text may name hosts, pids, client options) is logged
      const error = publicReason(outcome.error);
      if (isTransient(outcome.error)) {
        const retryAfterMs = AwakenError.isInstance(outcome.error) ? outcome.error.retryAfterMs : undefined;
        return { action: 'retry', error, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
      }
      return { action: 'dead_letter', error, endReason: `permanent failure: ${error}` };
    }
    default:
      return assertNever(outcome, 'activation outcome');
  }
}
