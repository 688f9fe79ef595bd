import type { Notifier } from './notifier';

/**
 * Waits until `check` finds something (resolves true), checking it once LISTEN on `channel` is
 * active (so a notification sent after the call started is never missed), again after every
 * notification whose payload `matches`, and every `pollMs` (a lost notification only delays);
 * resolves false after `waitMs` or when `signal` aborts.
 */
export async function waitFor(input: {
  notifier: Notifier;
  channel: string;
  matches: (payload: string) => boolean;
  check: () => Promise<boolean>;
  waitMs: number;
  pollMs: number;
  signal?: AbortSignal;
}): Promise<boolean> {
  const { signal } = input;
  if (signal?.aborted) return false;
  let wake: (() => void) | undefined;
  let woken = false;
  const unlisten = await input.notifier.listen(input.channel, (payload) => {
    if (payload !== '' && !input.matches(payload)) return;
    woken = true;
    wake?.();
  });
  const deadline = Date.now() + input.waitMs;
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      woken = false;
      try {
        if (await input.check()) return true;
      } catch (error) {
        if (signal?.aborted) return false; // closing: the pool may be gone
        throw error;
      }
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return false;
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, input.pollMs));
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });
      }
      if (signal?.aborted) return false;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    unlisten();
  }
}
