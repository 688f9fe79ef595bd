/** A clock that moves only when told: pass `now` to a store, call `advance` from the harness. */
export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

/** A manual clock starting at `start` (default 2025-01-01T00:00:00Z). */
export function createManualClock(start = Date.UTC(2025, 0, 1)): ManualClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      if (ms < 0) throw new Error('a manual clock only moves forward');
      current += ms;
    },
  };
}
