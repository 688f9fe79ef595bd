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

/** Back to queued for another attempt: the old claim's token, owner and lease are dropped. */
export function requeued(dispatch: RunDispatch, at: number, patch: Partial<RunDispatch>): RunDispatch {
  const { claimToken: _token, claimedBy: _owner, leaseUntil: _lease, ...rest } = dispatch;
  return { ...rest, ...patch, status: 'queued', updatedAt: at };
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
  return requeued(dispatch, at, { attemptCount, lastError: error, availableAt: input.retryAt });
}
