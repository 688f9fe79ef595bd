/**
 * Resolves when one of `waiters` is called, after `waitMs`, or when `signal` aborts — whichever comes
 * first — and always removes its waiter and timer, so an abandoned wait leaks nothing.
 */
export function waitForSignal(input: {
  waiters: Set<() => void>;
  waitMs: number;
  signal?: AbortSignal;
}): Promise<void> {
  const { waiters, waitMs, signal } = input;
  if (signal?.aborted || waitMs <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    waiters.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
