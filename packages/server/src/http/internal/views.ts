import { AwakenError, type RunDispatch, type RunRecord } from '@awaken/contract';
import type { DispatchView, RunView } from '../schemas/resource-schemas';

/** A run record without its internal state. */
export function toRunView(record: RunRecord): RunView {
  const { state: _state, ...view } = record;
  return view;
}

/** A dispatch without its claim token. */
export function toDispatchView(dispatch: RunDispatch): DispatchView {
  const { claimToken: _claimToken, ...view } = dispatch;
  return view;
}

export function notFound(what: string): AwakenError {
  return new AwakenError('not_found', `${what} not found`);
}
