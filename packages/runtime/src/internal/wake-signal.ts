/**
 * An edge-triggered wake-up: `wait()` resolves at the next `notify()`. Callers check their condition
 * (queue non-empty, signal aborted) before waiting; single-threaded JS makes check-then-wait safe.
 */
export interface WakeSignal {
  notify(): void;
  wait(): Promise<void>;
}

export function createWakeSignal(): WakeSignal {
  let waiters: Array<() => void> = [];
  return {
    notify() {
      const current = waiters;
      waiters = [];
      for (const resolve of current) resolve();
    },
    wait() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
      });
    },
  };
}
