import type { DispatchEntry } from './mailbox-state';

/**
 * Reclaim order: the earliest lease deadline first, equal deadlines in enqueue order (the entry's
 * insertion position) — never by id, which each backend generates its own way.
 */
export function reclaimOrder(a: DispatchEntry, b: DispatchEntry): number {
  return (a.dispatch.leaseUntil ?? 0) - (b.dispatch.leaseUntil ?? 0) || a.position - b.position;
}
