import { AwakenError, type RunDispatch, type RunRecord } from '@awaken/contract';
import type { DispatchView, RunView } from '../schemas/resource-schemas';

/** A run record without its internal state. */
export function toRunView(record: RunRecord): RunView {
  const { state: _state, ...view } = record;
  return view;
}

/** A dispatch without its claim token and its worker id (a host name and a pid: the log's, not the tenant's). */
export function toDispatchView(dispatch: RunDispatch): DispatchView {
  const { claimToken: _claimToken, claimedBy: _claimedBy, ...view } = dispatch;
  return view;
}

export function notFound(what: string): AwakenError {
  return new AwakenError('not_found', `${what} not found`);
}
