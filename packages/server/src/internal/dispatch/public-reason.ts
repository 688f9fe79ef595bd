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

/** What a store records when it reclaims a dispatch: `lease of <worker id> expired`. */
const LEASE_EXPIRED = /^lease of [\s\S]* expired$/;

/** What the tenant reads for a dispatch whose worker's lease expired (the worker's id names a host and a pid). */
export const LEASE_EXPIRED_REASON = "the worker's lease expired";

/**
 * A dispatch's `lastError` where the tenant reads it (the dispatch views, the message of a run the
 * service ended): the store's `lease of <worker id> expired` — a host name and a pid — is said as
 * {@link LEASE_EXPIRED_REASON}; every other `lastError` is already the service's own words
 * ({@link publicReason}). The stored dispatch keeps the worker's id for operators (`service`'s
 * dispatch reads, the store).
 */
export function publicDispatchError(lastError: string): string {
  return LEASE_EXPIRED.test(lastError) ? LEASE_EXPIRED_REASON : lastError;
}
