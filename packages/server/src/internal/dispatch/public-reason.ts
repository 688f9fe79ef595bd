import { AwakenError } from '@awaken/contract';

/**
 * What a failed activation is called where the tenant reads it — a dispatch's `lastError`, the
 * message of a run the service ended: what happened, in our words. An error's own text may carry
 * internals (a Redis client's option names, a worker's host name and pid in a lease holder, file
 * paths); it goes to the log (`onError`) instead.
 */
export function publicReason(error: unknown): string {
  if (!AwakenError.isInstance(error)) return 'an internal error';
  switch (error.code) {
    case 'store_failure':
      return 'the store was unavailable';
    case 'model_transient':
      return 'the model provider was unavailable';
    case 'model_permanent':
      return 'the model provider refused the request';
    case 'run_busy':
      return 'the run was held by another activation';
    case 'detached':
      return 'the run was handed over to another activation';
    case 'stale_claim':
      return "the dispatch's claim was lost";
    case 'timeout':
      return 'an operation timed out';
    default:
      return `an error (${error.code})`;
  }
}
