import { randomUUID } from 'node:crypto';
import type { ClaimProof, RunDispatch } from '@awaken/contract';
import type { ApprovalLinks } from './approval-links';
import type { NotificationOutbox } from './create-notification-outbox';
import { deliveryBodyOf } from './delivery-body';
import { DELIVERY_ID_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhook } from './webhook-signature';

export interface DeliveryWorkerOptions {
  outbox: NotificationOutbox;
  /** Mints the approval link of `approval.requested`; without it no link is sent. */
  links?: ApprovalLinks;
  workerId?: string;
  /** Deliveries in flight at once. Default 4. */
  concurrency?: number;
  /** Longest wait for a receiver's answer; past it the attempt failed. Default 10 000 ms. */
  timeoutMs?: number;
  /** Delay before retry n: `baseDelayMs × 2^(n−1)`, at most `maxDelayMs`, less up to 20 % jitter. */
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
  /** Longest idle wait for new deliveries (and how soon a due retry is noticed). Default 1000 ms. */
  idleWaitMs?: number;
  /**
   * How long a delivery that ended (delivered, cancelled, superseded) is kept before the worker's sweep
   * removes it, leaving a marker so it is never sent again (`NotificationOutbox.purgeDelivered`); dead
   * letters are kept. `null`: never purged. Default 7 days.
   */
  retainDeliveredMs?: number | null;
  /** How often the worker sweeps (the first sweep soon after start). Default 1 hour. */
  purgeEveryMs?: number;
  fetch?: typeof fetch;
  onError?: (error: unknown, context: string) => void;
}

/** A running delivery worker. */
export interface DeliveryWorker {
  /** Stops claiming, waits for the attempts in flight, resolves when idle. */
  stop(): Promise<void>;
}

/** The delay before retry `attempt` (1 for the first retry). */
export function deliveryRetryDelay(
  attempt: number,
  retry: { baseDelayMs: number; maxDelayMs: number },
  random: number = Math.random(),
): number {
  const exponential = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (1 - 0.2 * random));
}

/**
 * Delivers the tenant's notifications, apart from any run: claims deliveries from the outbox's own
 * mailbox, POSTs each signed (`Awaken-Signature`, `Awaken-Delivery-Id`, `Awaken-Event`) with a
 * timeout, acks a 2xx, and nacks anything else (a status, a timeout, a refused connection) with
 * exponential backoff until the outbox's `maxAttempts`, when it is dead-lettered. A delivery whose
 * worker died is reclaimed when its lease (twice the timeout, at most the timeout plus 5 s) expires and sent again under the
 * same delivery id: receivers dedupe by it. Runs never wait for a receiver. Deliveries that ended
 * are purged after `retainDeliveredMs`, each leaving a marker that keeps it from being sent again.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { outbox } = options;
  const { mailbox } = outbox.stores;
  const workerId = options.workerId ?? `notify:${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 4;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // the attempt is over (answered or timed out) well before its lease ends
  const leaseMs = timeoutMs + Math.min(5_000, timeoutMs);
  const retry = {
    baseDelayMs: options.retry?.baseDelayMs ?? 1_000,
    maxDelayMs: options.retry?.maxDelayMs ?? 300_000,
  };
  const idleWaitMs = options.idleWaitMs ?? 1_000;
  const retainMs = options.retainDeliveredMs === undefined ? 7 * 24 * 3_600_000 : options.retainDeliveredMs;
  const purgeEveryMs = options.purgeEveryMs ?? 3_600_000;
  const send = options.fetch ?? fetch;
  const report = options.onError ?? (() => {});
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();

  async function attempt(dispatch: RunDispatch, proof: ClaimProof): Promise<void> {
    const delivery = await outbox.load(dispatch.threadId);
    // a purge marker (a settlement enqueued it again while a purge removed it): delivered, not resent
    if (delivery?.purgedAt !== undefined) {
      await mailbox.ack(proof);
      return;
    }
    const endpoint = outbox.endpoints.find((candidate) => candidate.id === delivery?.endpointId);
    if (!delivery || !endpoint) {
      const why = delivery
        ? `endpoint ${delivery.endpointId} is no longer configured`
        : 'notification not found';
      await mailbox.deadLetter({ ...proof, error: why });
      return;
    }
    const now = Date.now();
    const body = deliveryBodyOf({
      tenant: outbox.tenant,
      delivery,
      endpoint,
      ...(options.links ? { links: options.links } : {}),
      now,
    });
    let failure: string | undefined;
    try {
      const response = await send(endpoint.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'awaken-webhooks/1',
          [SIGNATURE_HEADER]: signWebhook(endpoint.secret, body, Math.floor(now / 1000)),
          [DELIVERY_ID_HEADER]: delivery.deliveryId,
          [EVENT_HEADER]: delivery.event,
          'awaken-delivery-attempt': String(dispatch.attemptCount + 1),
        },
        body,
      });
      await response.body?.cancel().catch(() => {});
      if (response.status < 200 || response.status >= 300) failure = `HTTP ${response.status}`;
    } catch (error) {
      failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    if (failure === undefined) {
      await mailbox.ack(proof);
      return;
    }
    const retryAt = (await mailbox.now()) + deliveryRetryDelay(dispatch.attemptCount + 1, retry);
    await mailbox.nack({ ...proof, error: `${endpoint.url}: ${failure}`, retryAt });
  }

  function start(dispatch: RunDispatch): void {
    const proof = { dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' };
    const running: Promise<void> = attempt(dispatch, proof)
      .catch((error: unknown) => report(error, `delivering ${dispatch.dispatchId}`))
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  }

  const loop = (async () => {
    let nextReclaim = 0;
    let nextPurge = 0;
    while (!stopping.signal.aborted) {
      if (retainMs !== null && Date.now() >= nextPurge) {
        nextPurge = Date.now() + purgeEveryMs;
        try {
          await outbox.purgeDelivered({ olderThan: (await mailbox.now()) - retainMs });
        } catch (error) {
          report(error, 'purging delivered notifications');
        }
      }
      try {
        if (Date.now() >= nextReclaim) {
          nextReclaim = Date.now() + Math.max(100, Math.floor(leaseMs / 2));
          await mailbox.reclaimExpiredLeases();
        }
        const free = concurrency - inFlight.size;
        if (free <= 0) {
          await Promise.race(inFlight);
          continue;
        }
        const claimed = await mailbox.claim({ workerId, limit: free, leaseMs });
        for (const dispatch of claimed) start(dispatch);
        if (claimed.length === 0)
          await mailbox.waitForWork({ timeoutMs: idleWaitMs, signal: stopping.signal });
      } catch (error) {
        report(error, 'claiming deliveries');
        await new Promise((resolve) => setTimeout(resolve, idleWaitMs));
      }
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await loop;
      await Promise.all([...inFlight]);
    },
  };
}
