import { type RunDispatch, type RunDispatchStatus, isTerminalDispatchStatus } from '@awaken/contract';
import { dropEndedClaim } from './dispatch-updates';

/** One stored dispatch and its insertion position (the age tie-breaker and the paging cursor). */
export interface DispatchEntry {
  position: number;
  dispatch: RunDispatch;
}

/**
 * The memory mailbox's records and the indexes derived from them. Every status change goes through
 * `write` or `apply`, which keep the indexes (queued set, claimed set, one claim per thread, live
 * dedupe keys) in step with the records and drop the token and lease of a claim that ended.
 */
export interface MailboxState {
  entries: Map<string, DispatchEntry>;
  queued: Map<string, DispatchEntry>;
  claimed: Map<string, DispatchEntry>;
  claimByThread: Map<string, string>;
  byThread: Map<string, Map<string, DispatchEntry>>;
  epochs: Map<string, number>;
  liveDedupeKeys: Map<string, string>;
  /** The status index: every dispatch under its current status (counts, tenant-wide listings). */
  byStatus: Map<RunDispatchStatus, Map<string, DispatchEntry>>;
  insert(dispatch: RunDispatch): DispatchEntry;
  write(entry: DispatchEntry, next: RunDispatch): void;
  /** Moves the stored record to `status` in place (the store copies on every way out). */
  apply(entry: DispatchEntry, status: RunDispatchStatus, at: number, patch?: Partial<RunDispatch>): void;
  remove(entry: DispatchEntry): void;
  epochOf(threadId: string): number;
}

/** The live-dedupe index key of a thread's dedupe key: a JSON pair, so no two pairs share one. */
export function dedupeIndexKey(threadId: string, dedupeKey: string): string {
  return JSON.stringify([threadId, dedupeKey]);
}

export function createMailboxState(): MailboxState {
  let nextPosition = 1;
  const state: MailboxState = {
    entries: new Map(),
    queued: new Map(),
    claimed: new Map(),
    claimByThread: new Map(),
    byThread: new Map(),
    epochs: new Map(),
    liveDedupeKeys: new Map(),
    byStatus: new Map(),

    insert(dispatch) {
      const entry: DispatchEntry = { position: nextPosition++, dispatch };
      state.entries.set(dispatch.dispatchId, entry);
      let threadEntries = state.byThread.get(dispatch.threadId);
      if (threadEntries === undefined) {
        threadEntries = new Map();
        state.byThread.set(dispatch.threadId, threadEntries);
      }
      threadEntries.set(dispatch.dispatchId, entry);
      index(entry, undefined);
      return entry;
    },

    write(entry, next) {
      const previous = entry.dispatch.status;
      entry.dispatch = next;
      dropEndedClaim(next, previous);
      index(entry, previous);
    },

    apply(entry, status, at, patch) {
      const previous = entry.dispatch.status;
      if (patch !== undefined) Object.assign(entry.dispatch, patch);
      entry.dispatch.status = status;
      entry.dispatch.updatedAt = at;
      dropEndedClaim(entry.dispatch, previous);
      index(entry, previous);
    },

    remove(entry) {
      const { dispatchId, threadId } = entry.dispatch;
      state.entries.delete(dispatchId);
      state.queued.delete(dispatchId);
      state.claimed.delete(dispatchId);
      state.byStatus.get(entry.dispatch.status)?.delete(dispatchId);
      if (state.claimByThread.get(threadId) === dispatchId) state.claimByThread.delete(threadId);
      const threadEntries = state.byThread.get(threadId);
      threadEntries?.delete(dispatchId);
      if (threadEntries?.size === 0) state.byThread.delete(threadId);
      const { dedupeKey } = entry.dispatch;
      if (dedupeKey !== undefined) {
        const key = dedupeIndexKey(threadId, dedupeKey);
        if (state.liveDedupeKeys.get(key) === dispatchId) state.liveDedupeKeys.delete(key);
      }
    },

    epochOf(threadId) {
      return state.epochs.get(threadId) ?? 0;
    },
  };

  function index(entry: DispatchEntry, previous: RunDispatchStatus | undefined): void {
    const { dispatchId, threadId, status, dedupeKey } = entry.dispatch;
    if (previous !== undefined) state.byStatus.get(previous)?.delete(dispatchId);
    let withStatus = state.byStatus.get(status);
    if (withStatus === undefined) {
      withStatus = new Map();
      state.byStatus.set(status, withStatus);
    }
    withStatus.set(dispatchId, entry);
    if (status === 'queued') state.queued.set(dispatchId, entry);
    else state.queued.delete(dispatchId);
    if (status === 'claimed') {
      state.claimed.set(dispatchId, entry);
      state.claimByThread.set(threadId, dispatchId);
    } else {
      state.claimed.delete(dispatchId);
      if (previous === 'claimed' && state.claimByThread.get(threadId) === dispatchId) {
        state.claimByThread.delete(threadId);
      }
    }
    if (dedupeKey !== undefined) {
      const key = dedupeIndexKey(threadId, dedupeKey);
      if (!isTerminalDispatchStatus(status)) state.liveDedupeKeys.set(key, dispatchId);
      else if (state.liveDedupeKeys.get(key) === dispatchId) state.liveDedupeKeys.delete(key);
    }
  }

  return state;
}
