import type { RunDispatchStatus } from '@awaken/contract';
import type { NotificationStores, StoredDelivery } from './stored-delivery';

/** The dispatch statuses of a delivery that is over and was not dead-lettered: what a purge removes. */
export const PURGEABLE_DELIVERY_STATUSES: readonly RunDispatchStatus[] = ['acked', 'cancelled', 'superseded'];

/** A delivery's metadata once purged: what it was, without what it carried (`data`), and when. */
export interface PurgedDeliveryMarker {
  delivery: StoredDelivery;
  purgedAt: number;
}

/** True when a delivery thread's metadata is a purge marker (see {@link purgeDelivered}). */
export function isPurgedMarker(metadata: Record<string, unknown> | undefined): boolean {
  return typeof metadata?.purgedAt === 'number';
}

/**
 * Removes the deliveries that ended (delivered, cancelled or superseded — never a dead letter, which
 * stays until an operator retries it) before `olderThan`, keeping one marker per delivery.
 *
 * A delivery is a thread (the notification) and its dispatches (the attempts), both named by the
 * delivery id, which a notification's identity determines (`deliveryIdOf`). Removing both would let a
 * later settlement of the same run (a resume, a reclaimed dispatch, a restart) enqueue the same
 * notification again, and the receiver would get it twice. So the thread stays, its metadata replaced
 * by a {@link PurgedDeliveryMarker} (the event, endpoint and times; the payload dropped), and the
 * outbox enqueues nothing for a delivery whose thread is a marker. The markers are written first, then
 * the dispatches purged: a crash in between leaves markers beside dispatches (purged by the next
 * sweep), never a purged dispatch without its marker. Returns the markers written and the dispatches
 * removed.
 */
export async function purgeDelivered(
  stores: NotificationStores,
  input: { olderThan: number; now?: number },
): Promise<{ marked: number; purged: number }> {
  const { threadRuns, mailbox } = stores;
  const now = input.now ?? Date.now();
  const marked = new Set<string>();
  for (const status of PURGEABLE_DELIVERY_STATUSES) {
    let cursor: string | undefined;
    do {
      const page = await mailbox.listDispatchesByStatus(status, {
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      for (const dispatch of page.items) {
        if (dispatch.updatedAt >= input.olderThan || marked.has(dispatch.threadId)) continue;
        const thread = await threadRuns.getThread(dispatch.threadId);
        if (thread && !isPurgedMarker(thread.metadata)) {
          const delivery = thread.metadata.delivery as StoredDelivery | undefined;
          const marker: PurgedDeliveryMarker = {
            delivery: {
              ...(delivery ?? ({ deliveryId: dispatch.threadId } as StoredDelivery)),
              data: {},
              purgedAt: now,
            },
            purgedAt: now,
          };
          await threadRuns.updateThreadMetadata(dispatch.threadId, { ...marker });
        }
        marked.add(dispatch.threadId);
      }
      cursor = page.nextCursor;
    } while (cursor);
  }
  const purged = await mailbox.purgeTerminal({
    olderThan: input.olderThan,
    status: [...PURGEABLE_DELIVERY_STATUSES],
  });
  return { marked: marked.size, purged };
}
