import type { MailboxStore } from '@awaken/contract';
import type { SuiteContext } from '../suite-context';
import { describe, expect, it } from 'vitest';
import { dispatchInput, proofOf } from './fixtures';

const LONG_WAIT_MS = 10_000;
/** Long enough for a waiter to be blocked (on a network store: its BLPOP sent) before we act. */
const SETTLE_MS = 60;
/** How late a wake-up may be and still count as "soon" on a busy CI machine. */
const PROMPT_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a wait and records whether (and when) it resolved, without awaiting it. */
function startWaiting(store: MailboxStore, options: { timeoutMs: number; signal?: AbortSignal }) {
  const started = performance.now();
  const watch = { settled: false, elapsedMs: 0 };
  const result = store.waitForWork(options).then((woken) => {
    watch.settled = true;
    watch.elapsedMs = performance.now() - started;
    return woken;
  });
  return { watch, result };
}

/** Claims everything claimable, so no earlier work can explain a wake-up. */
async function drain(store: MailboxStore): Promise<void> {
  expect(await store.claim({ workerId: 'drainer', limit: 100, leaseMs: 60_000 })).toEqual([]);
}

export function waitForWorkSpec(ctx: SuiteContext<MailboxStore>): void {
  describe('waitForWork', () => {
    it('wakes a waiter when another client enqueues, and not before', async () => {
      await drain(ctx.store);
      const peer = await ctx.peer();
      const { watch, result } = startWaiting(ctx.store, { timeoutMs: LONG_WAIT_MS });
      await sleep(SETTLE_MS);
      expect(watch.settled).toBe(false);
      const enqueued = await peer.enqueue(dispatchInput());
      expect(await result).toBe(true);
      expect(watch.elapsedMs).toBeLessThan(SETTLE_MS + PROMPT_MS);
      const [claimed] = await ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: ctx.shortLeaseMs });
      expect(claimed?.dispatchId).toBe(enqueued.dispatchId);
    });

    it('does not miss work enqueued between an empty claim and the wait', async () => {
      await drain(ctx.store);
      await (await ctx.peer()).enqueue(dispatchInput());
      const { watch, result } = startWaiting(ctx.store, { timeoutMs: LONG_WAIT_MS });
      expect(await result).toBe(true);
      expect(watch.elapsedMs).toBeLessThan(PROMPT_MS);
    });

    it('returns false once the timeout passes with nothing enqueued', async () => {
      await drain(ctx.store);
      const { watch, result } = startWaiting(ctx.store, { timeoutMs: 150 });
      expect(await result).toBe(false);
      expect(watch.elapsedMs).toBeGreaterThanOrEqual(140);
      expect(watch.elapsedMs).toBeLessThan(150 + PROMPT_MS);
    });

    it('returns false promptly when the signal aborts, and at once when it already has', async () => {
      await drain(ctx.store);
      const controller = new AbortController();
      const { watch, result } = startWaiting(ctx.store, {
        timeoutMs: LONG_WAIT_MS,
        signal: controller.signal,
      });
      await sleep(SETTLE_MS);
      controller.abort();
      expect(await result).toBe(false);
      expect(watch.elapsedMs).toBeLessThan(SETTLE_MS + PROMPT_MS);
      expect(await ctx.store.waitForWork({ timeoutMs: LONG_WAIT_MS, signal: controller.signal })).toBe(false);
    });

    it('an aborted waiter does not swallow the wake-up of the next one', async () => {
      await drain(ctx.store);
      const controller = new AbortController();
      const aborted = ctx.store.waitForWork({ timeoutMs: LONG_WAIT_MS, signal: controller.signal });
      await sleep(SETTLE_MS);
      controller.abort();
      expect(await aborted).toBe(false);
      await (await ctx.peer()).enqueue(dispatchInput());
      expect(await ctx.store.waitForWork({ timeoutMs: PROMPT_MS })).toBe(true);
    });

    it('wakes a waiter when a nack requeues a dispatch', async () => {
      await ctx.store.enqueue(dispatchInput());
      const [claimed] = await ctx.store.claim({ workerId: 'w', limit: 10, leaseMs: ctx.shortLeaseMs });
      if (claimed === undefined) throw new Error('expected a claimed dispatch');
      const peer = await ctx.peer();
      const { watch, result } = startWaiting(ctx.store, { timeoutMs: LONG_WAIT_MS });
      await sleep(SETTLE_MS);
      expect(watch.settled).toBe(false);
      await peer.nack({ ...proofOf(claimed), error: 'try again' });
      expect(await result).toBe(true);
      expect(watch.elapsedMs).toBeLessThan(SETTLE_MS + PROMPT_MS);
      const [again] = await ctx.store.claim({ workerId: 'w', limit: 1, leaseMs: ctx.shortLeaseMs });
      expect(again?.dispatchId).toBe(claimed.dispatchId);
    });

    it('wakes as many competing waiters as dispatches were enqueued', async () => {
      await drain(ctx.store);
      const peers = [await ctx.peer(), await ctx.peer()];
      const waits = peers.map((peer) => peer.waitForWork({ timeoutMs: LONG_WAIT_MS }));
      await sleep(SETTLE_MS);
      await ctx.store.enqueue(dispatchInput());
      await ctx.store.enqueue(dispatchInput());
      expect(await Promise.all(waits)).toEqual([true, true]);
    });

    it('rejects a negative or non-finite timeout', async () => {
      for (const timeoutMs of [-1, Number.NaN]) {
        await expect(ctx.store.waitForWork({ timeoutMs })).rejects.toMatchObject({
          code: 'validation_failed',
        });
      }
    });
  });
}
