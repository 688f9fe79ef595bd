import { AwakenError } from '../errors/awaken-error';

/** A state machine as data: for each state, the states it may move to. */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

/** True when the table allows `from -> to`. */
export function canTransition<S extends string>(table: TransitionTable<S>, from: S, to: S): boolean {
  return table[from].includes(to);
}

/**
 * Returns `to` when the table allows `from -> to`; otherwise throws
 * `AwakenError('invalid_transition')` naming the machine and both states.
 */
export function transitionIn<S extends string>(
  machine: string,
  table: TransitionTable<S>,
  from: S,
  to: S,
): S {
  if (!canTransition(table, from, to)) {
    throw new AwakenError('invalid_transition', `${machine}: illegal transition ${from} -> ${to}`, {
      details: { machine, from, to },
    });
  }
  return to;
}
