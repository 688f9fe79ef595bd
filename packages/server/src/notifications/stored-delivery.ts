import type { MailboxStore, ThreadRunStore } from '@awaken/contract';
import type { NotificationEvent } from './webhook-endpoint';

/**
 * Where deliveries are kept: a store bundle of their own (the tenant's backend under another prefix
 * or schema, never the run bundle: run workers must not claim deliveries). Each delivery is one
 * thread (its metadata the notification) and one dispatch (its attempts, backoff and dead letter),
 * both under the delivery id.
 */
export interface NotificationStores {
  threadRuns: ThreadRunStore;
  mailbox: MailboxStore;
}

/** A delivery as stored: what is sent on every attempt (the approval link is minted at each). */
export interface StoredDelivery {
  deliveryId: string;
  endpointId: string;
  event: NotificationEvent;
  /** When the notification was enqueued (epoch ms). */
  createdAt: number;
  data: Record<string, unknown>;
  /**
   * Set on the marker a purge leaves (`purgeDelivered`; `data` is then `{}`): the delivery was
   * delivered (or ended) and is never sent again — a delivery worker acks a dispatch of it unsent.
   */
  purgedAt?: number;
}
