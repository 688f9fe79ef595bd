import type { DispatchEntry } from './mailbox-state';

/** Compares ids by their UTF-8 bytes, as Redis orders sorted-set members of equal score. */
export function compareBytes(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Reclaim order: the earliest lease deadline first, then the dispatch id (bytewise). */
export function reclaimOrder(a: DispatchEntry, b: DispatchEntry): number {
  return (
    (a.dispatch.leaseUntil ?? 0) - (b.dispatch.leaseUntil ?? 0) ||
    compareBytes(a.dispatch.dispatchId, b.dispatch.dispatchId)
  );
}
