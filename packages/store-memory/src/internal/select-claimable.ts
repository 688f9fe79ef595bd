import type { DispatchEntry, MailboxState } from './mailbox-state';

/** Claim order: priority (0 first), then enqueue order (the entry's insertion position). */
function claimOrder(a: DispatchEntry, b: DispatchEntry): number {
  return a.dispatch.priority - b.dispatch.priority || a.position - b.position;
}

/**
 * Up to `limit` queued dispatches that may be claimed at `now`, in priority (0 first) then age order,
 * at most one per thread and none of a thread that already holds a claim.
 */
export function selectClaimable(state: MailboxState, now: number, limit: number): DispatchEntry[] {
  if (limit === 1) return selectFirst(state, now);
  const candidates: DispatchEntry[] = [];
  for (const entry of state.queued.values()) {
    if (entry.dispatch.availableAt <= now && !state.claimByThread.has(entry.dispatch.threadId)) {
      candidates.push(entry);
    }
  }
  candidates.sort(claimOrder);
  const chosen: DispatchEntry[] = [];
  const threads = new Set<string>();
  for (const entry of candidates) {
    if (chosen.length === limit) break;
    if (threads.has(entry.dispatch.threadId)) continue;
    threads.add(entry.dispatch.threadId);
    chosen.push(entry);
  }
  return chosen;
}

/** The one best claimable dispatch, in a single pass (the common `limit: 1` worker loop). */
function selectFirst(state: MailboxState, now: number): DispatchEntry[] {
  let best: DispatchEntry | undefined;
  for (const entry of state.queued.values()) {
    if (entry.dispatch.availableAt > now || state.claimByThread.has(entry.dispatch.threadId)) continue;
    if (best === undefined || claimOrder(entry, best) < 0) best = entry;
  }
  return best === undefined ? [] : [best];
}
