import type { RunDispatch } from '@awaken/contract';

/**
 * A copy of a dispatch that shares nothing with the stored one. Every field is a primitive except
 * `termination`, a flat object, so two spreads do what `structuredClone` does at a fraction of the cost
 * (the mailbox copies on every claim, ack and read).
 */
export function copyDispatch(dispatch: RunDispatch): RunDispatch {
  const copy = { ...dispatch };
  if (dispatch.termination !== undefined) copy.termination = { ...dispatch.termination };
  return copy;
}
