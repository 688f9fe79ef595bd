import { AwakenError } from '@awaken/contract';
import { toStoreError } from '../connection/redis-error';
import type { BlockingPool } from './blocking-pool';

/**
 * Pops one wake-up marker from the list `key`, blocking (BLPOP) on a dedicated pooled connection for
 * up to `timeoutMs`: `true` when one was popped, `false` on timeout or abort. An abort resolves at
 * once (the pool sends CLIENT UNBLOCK to free the connection); a marker the BLPOP still popped after
 * the abort is pushed back, so the next waiter gets it.
 */
export async function waitForMarker(input: {
  pool: BlockingPool;
  key: string;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<boolean> {
  const { pool, key, timeoutMs, signal } = input;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new AwakenError('validation_failed', `timeoutMs must be a number >= 0, got ${timeoutMs}`);
  }
  if (signal.aborted) return false;
  const popped = pool.with(signal, async (client) => {
    if (signal.aborted) return false;
    const reply =
      timeoutMs === 0 ? await client.lpop(key) : await client.blpop(key, Math.max(1, timeoutMs) / 1000);
    if (reply === null) return false;
    if (!signal.aborted) return true;
    await client.lpush(key, '1');
    return false;
  });
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<boolean>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([popped, aborted]);
  } catch (error) {
    if (signal.aborted) return false;
    throw toStoreError(error);
  } finally {
    signal.removeEventListener('abort', onAbort);
    // After an abort nobody awaits the BLPOP any more; it settles once unblocked.
    popped.catch(() => undefined);
  }
}
