/**
 * Resolves when one of `waiters` is called (`true`), after `waitMs` or when `signal` aborts (`false`)
 * — whichever comes first — and always removes its waiter and timer, so an abandoned wait leaks nothing.
 */
export function waitForSignal(input: {
  waiters: Set<() => void>;
  waitMs: number;
  signal?: AbortSignal;
}): Promise<boolean> {
  const { waiters, waitMs, signal } = input;
  if (signal?.aborted || waitMs <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (woken: boolean) => {
      clearTimeout(timer);
      waiters.delete(wake);
      signal?.removeEventListener('abort', stop);
      resolve(woken);
    };
    const wake = () => settle(true);
    const stop = () => settle(false);
    const timer = setTimeout(stop, waitMs);
    waiters.add(wake);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Calls every current waiter once (each removes itself). */
export function wakeAll(waiters: Set<() => void>): void {
  for (const wake of [...waiters]) wake();
}
