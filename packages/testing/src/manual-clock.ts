/**
 * A clock that moves only when told: pass `clock.now` as a runtime's `now` option, then `advance`
 * past a ticket's `expiresAt` instead of waiting for it.
 */
export interface ManualClock {
  now(): number;
  /** Moves the clock forward by `ms` (>= 0) and returns the new time. */
  advance(ms: number): number;
  /** Sets the clock to `at` (never backwards). */
  set(at: number): void;
}

/** A {@link ManualClock} starting at `start` (epoch ms; a fixed, readable default). */
export function createManualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let time = start;
  return {
    now: () => time,
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`advance takes a non-negative number of ms, got ${ms}`);
      time += ms;
      return time;
    },
    set(at) {
      if (at < time) throw new RangeError(`the clock does not go backwards (${at} < ${time})`);
      time = at;
    },
  };
}
