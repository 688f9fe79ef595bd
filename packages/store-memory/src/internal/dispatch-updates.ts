import type { RunDispatch, RunDispatchStatus } from '@awaken/contract';

/** The dispatch with a new status and `updatedAt`, and `patch` applied. */
export function updated(
  dispatch: RunDispatch,
  status: RunDispatchStatus,
  at: number,
  patch: Partial<RunDispatch> = {},
): RunDispatch {
  return { ...dispatch, ...patch, status, updatedAt: at };
}

/**
 * A claim's token and lease exist only while it is claimed (MailboxStore TSDoc): every move out of
 * `claimed` drops both; `claimedBy` keeps naming the worker of the latest claim.
 */
export function dropEndedClaim(dispatch: RunDispatch, previous: RunDispatchStatus | undefined): void {
  if (previous !== 'claimed' || dispatch.status === 'claimed') return;
  delete dispatch.claimToken;
  delete dispatch.leaseUntil;
}

/**
 * What an attempt that ended without an ack leads to (nack or an expired lease): superseded when
 * the thread was interrupted meanwhile, dead letter when `maxAttempts` attempts were made, otherwise
 * queued again at `retryAt`.
 */
export function afterFailedAttempt(input: {
  dispatch: RunDispatch;
  at: number;
  error: string;
  retryAt: number;
  threadEpoch: number;
}): RunDispatch {
  const { dispatch, at, error } = input;
  const attemptCount = dispatch.attemptCount + 1;
  if (dispatch.dispatchEpoch < input.threadEpoch) {
    return updated(dispatch, 'superseded', at, { attemptCount, lastError: error });
  }
  if (attemptCount >= dispatch.maxAttempts) {
    return updated(dispatch, 'dead_letter', at, { attemptCount, lastError: error });
  }
  return updated(dispatch, 'queued', at, { attemptCount, lastError: error, availableAt: input.retryAt });
}
