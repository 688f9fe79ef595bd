import { AwakenError, type RunDispatch, type RunRecord } from '@awaken/contract';
import { publicDispatchError } from '../../internal/dispatch/public-reason';
import type { DispatchView, RunView } from '../schemas/resource-schemas';

/** A run record without its internal state. */
export function toRunView(record: RunRecord): RunView {
  const { state: _state, ...view } = record;
  return view;
}

/**
 * A dispatch without its claim token and its worker id (a host name and a pid: the operator's, not the
 * tenant's), and with its `lastError` in words that name neither (`publicDispatchError`).
 */
export function toDispatchView(dispatch: RunDispatch): DispatchView {
  const { claimToken: _claimToken, claimedBy: _claimedBy, ...view } = dispatch;
  if (view.lastError === undefined) return view;
  return { ...view, lastError: publicDispatchError(view.lastError) };
}

export function notFound(what: string): AwakenError {
  return new AwakenError('not_found', `${what} not found`);
}
