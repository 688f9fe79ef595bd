import { createHash } from 'node:crypto';
import { AwakenError, type RunRecord } from '@awaken/contract';
import { isPurgedMarker, purgeDelivered } from './purge-delivered';
import type { NotificationStores, StoredDelivery } from './stored-delivery';
import { runNotificationsOf } from './run-notifications-of';
import { type WebhookEndpoint, parseWebhookEndpoints, subscribes } from './webhook-endpoint';

export type { NotificationStores, StoredDelivery } from './stored-delivery';

export interface NotificationOutboxOptions {
  tenant: string;
  endpoints: readonly unknown[];
  stores: NotificationStores;
  /** Attempts of one delivery before it is dead-lettered. Default 8. */
  maxAttempts?: number;
}

/** The tenant's pending notifications: what settled runs have to tell, and what is left to deliver. */
export interface NotificationOutbox {
  readonly tenant: string;
  readonly endpoints: readonly WebhookEndpoint[];
  readonly stores: NotificationStores;
  readonly maxAttempts: number;
  /**
   * Enqueues a delivery to every subscribed endpoint for each notification of the stored run
   * (`runNotificationsOf`), durably, before it resolves. Idempotent: a notification already enqueued
   * (by this or any process) is not enqueued again, so calling it again after a crash is safe.
   */
  record(record: RunRecord): Promise<void>;
  /** A stored delivery, or null (a purged one keeps its event and endpoint, its `data` is `{}`). */
  load(deliveryId: string): Promise<StoredDelivery | null>;
  /**
   * Removes the deliveries that ended (delivered, cancelled, superseded; not dead letters) before
   * `olderThan`, keeping a marker per delivery so that none is ever enqueued again (see `purgeDelivered`).
   */
  purgeDelivered(input: { olderThan: number }): Promise<{ marked: number; purged: number }>;
}

/** The delivery id of a notification for an endpoint: stable, opaque, the same on every retry. */
export function deliveryIdOf(tenant: string, endpointId: string, key: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([tenant, endpointId, key]))
    .digest('hex');
  return `dlv_${digest.slice(0, 32)}`;
}

async function ignoring<T>(codes: readonly string[], write: () => Promise<T>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!codes.some((code) => AwakenError.hasCode(error, code as never))) throw error;
  }
}

/** The outbox of one tenant over its delivery stores (see {@link NotificationOutbox}). */
export function createNotificationOutbox(options: NotificationOutboxOptions): NotificationOutbox {
  const endpoints = parseWebhookEndpoints(options.endpoints);
  const { threadRuns, mailbox } = options.stores;
  const maxAttempts = options.maxAttempts ?? 8;
  // ids this process saw fully enqueued: later settlements of the same run skip their writes
  const known = new Set<string>();
  const remember = (id: string) => {
    known.add(id);
    if (known.size > 10_000) known.delete(known.values().next().value as string);
  };

  /** True when the delivery's thread is a purge marker: the notification was delivered long ago. */
  async function purged(id: string): Promise<boolean> {
    return isPurgedMarker((await threadRuns.getThread(id))?.metadata);
  }

  async function enqueue(delivery: StoredDelivery): Promise<void> {
    const id = delivery.deliveryId;
    // the notification first, then its dispatch: a dispatch never exists without what it sends
    let existed = false;
    try {
      await threadRuns.createThread({ id, metadata: { delivery } });
    } catch (error) {
      if (!AwakenError.hasCode(error, 'conflict')) throw error;
      existed = true;
    }
    // an existing delivery may be one delivered and purged (its dispatch gone, a marker left): it is
    // not enqueued again (one recorded by a process that crashed before enqueuing its dispatch is)
    if (existed && (await purged(id))) {
      remember(id);
      return;
    }
    let enqueued = false;
    await ignoring(['conflict', 'dedupe_conflict'], async () => {
      await mailbox.enqueue({ dispatchId: id, threadId: id, runId: id, maxAttempts });
      enqueued = true;
    });
    // a purge that marked the delivery between the check above and this enqueue: take it back
    if (existed && enqueued && (await purged(id))) {
      await ignoring(['conflict', 'not_found', 'invalid_transition'], () => mailbox.cancel(id));
    }
    remember(id);
  }

  return {
    tenant: options.tenant,
    endpoints,
    stores: options.stores,
    maxAttempts,
    async record(record) {
      if (endpoints.length === 0) return;
      const now = Date.now();
      for (const notification of runNotificationsOf(record)) {
        for (const endpoint of endpoints) {
          if (!subscribes(endpoint, notification.event)) continue;
          const deliveryId = deliveryIdOf(options.tenant, endpoint.id, notification.key);
          if (known.has(deliveryId)) continue;
          await enqueue({
            deliveryId,
            endpointId: endpoint.id,
            event: notification.event,
            createdAt: now,
            data: notification.data,
          });
        }
      }
    },
    async load(deliveryId) {
      const thread = await threadRuns.getThread(deliveryId);
      const delivery = thread?.metadata.delivery;
      return delivery && typeof delivery === 'object' ? (delivery as StoredDelivery) : null;
    },
    purgeDelivered: (input) => purgeDelivered(options.stores, input),
  };
}
