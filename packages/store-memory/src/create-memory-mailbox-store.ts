import { randomUUID } from 'node:crypto';
import {
  AwakenError,
  type MailboxStore,
  type RunDispatch,
  type RunDispatchStatus,
  dispatchWithRunResult,
  isTerminalDispatchStatus,
  mailboxStoreInputs as inputs,
  queuedDispatch,
  runDispatchStatusSchema,
} from '@awaken/contract';
import { copyDispatch as clone } from './internal/copy-dispatch';
import { type MemoryStoreOptions, storeClock } from './internal/clock';
import { afterFailedAttempt } from './internal/dispatch-updates';
import { conflict, notFound } from './internal/errors';
import { fence } from './internal/fence';
import { type DispatchEntry, createMailboxState, dedupeIndexKey } from './internal/mailbox-state';
import { pageWindow, toPage } from './internal/paging';
import { reclaimOrder } from './internal/reclaim-order';
import { selectClaimable } from './internal/select-claimable';
import { waitForSignal, wakeAll } from './internal/wait-for-signal';

/** Checks that a lease of `leaseMs` from `at` ends at a safe-integer millisecond time. */
function checkLeaseDeadline(at: number, leaseMs: number): void {
  if (!Number.isSafeInteger(at + leaseMs)) {
    throw new AwakenError('validation_failed', `leaseMs ${leaseMs} puts the lease deadline out of range`);
  }
}

/**
 * A {@link MailboxStore} in process memory. Every guarantee of the contract's MailboxStore TSDoc holds
 * (tested by store-conformance): each operation checks and writes without yielding, so claims have
 * exactly one winner and interrupts are atomic under any number of concurrent callers. Leases use the
 * store's clock (`options.now`). Dispatches are lost when the process exits: use it embedded or in
 * tests, and `@awaken/store-redis` when a crash must not lose queued work.
 */
export function createMemoryMailboxStore(options: MemoryStoreOptions = {}): MailboxStore {
  const clock = storeClock(options);
  const state = createMailboxState();

  const claimEntry = (entry: DispatchEntry, workerId: string, leaseMs: number, at: number) =>
    state.apply(entry, 'claimed', at, {
      claimToken: randomUUID(),
      claimedBy: workerId,
      leaseUntil: at + leaseMs,
    });

  /** `waitForWork` callers, woken together whenever a dispatch may have become claimable. */
  const idleWaiters = new Set<() => void>();
  const wakeIfQueued = (threadId: string) => {
    for (const entry of state.byThread.get(threadId)?.values() ?? []) {
      if (entry.dispatch.status === 'queued') return wakeAll(idleWaiters);
    }
  };

  const requireEntry = (dispatchId: string) => {
    const entry = state.entries.get(dispatchId);
    if (entry === undefined) throw notFound('dispatch', dispatchId);
    return entry;
  };

  /** Checks and stores a new queued dispatch (the caller wakes waiters, or claims it). */
  const insert = (parsed: ReturnType<typeof inputs.enqueue.parse>, at: number): DispatchEntry => {
    const dispatchId = parsed.dispatchId ?? randomUUID();
    if (state.entries.has(dispatchId)) throw conflict(`dispatch ${dispatchId} already exists`);
    if (parsed.dedupeKey !== undefined) {
      const holder = state.liveDedupeKeys.get(dedupeIndexKey(parsed.threadId, parsed.dedupeKey));
      if (holder !== undefined) {
        throw new AwakenError(
          'dedupe_conflict',
          `thread ${parsed.threadId} already has live dispatch ${holder} with dedupe key ${parsed.dedupeKey}`,
          { details: { threadId: parsed.threadId, dedupeKey: parsed.dedupeKey, dispatchId: holder } },
        );
      }
    }
    const dispatch = queuedDispatch(parsed, dispatchId, state.epochOf(parsed.threadId), at);
    return state.insert(dispatch);
  };

  return {
    async now() {
      return clock();
    },

    async enqueue(input) {
      const { dispatch } = insert(inputs.enqueue.parse(input), clock());
      if (dispatch.availableAt <= dispatch.createdAt) wakeAll(idleWaiters);
      return clone(dispatch);
    },

    async enqueueAndClaim(input) {
      const { workerId, leaseMs, dispatchInstanceId, ...parsed } = inputs.enqueueAndClaim.parse(input);
      const at = clock();
      checkLeaseDeadline(at, leaseMs);
      const entry = insert(parsed, at);
      if (state.claimByThread.has(entry.dispatch.threadId)) {
        if (entry.dispatch.availableAt <= at) wakeAll(idleWaiters);
        return clone(entry.dispatch);
      }
      claimEntry(entry, workerId, leaseMs, at);
      if (dispatchInstanceId !== undefined) {
        state.apply(entry, 'claimed', at, { dispatchInstanceId, runStatus: 'running' });
      }
      return clone(entry.dispatch);
    },

    async claim(input) {
      const { workerId, limit, leaseMs } = inputs.claim.parse(input);
      const at = clock();
      checkLeaseDeadline(at, leaseMs);
      return selectClaimable(state, at, limit).map((entry) => {
        claimEntry(entry, workerId, leaseMs, at);
        return clone(entry.dispatch);
      });
    },

    async claimDispatch(input) {
      const { dispatchId, workerId, leaseMs } = inputs.claimDispatch.parse(input);
      const at = clock();
      checkLeaseDeadline(at, leaseMs);
      const entry = requireEntry(dispatchId);
      if (entry.dispatch.status !== 'queued' || state.claimByThread.has(entry.dispatch.threadId)) return null;
      claimEntry(entry, workerId, leaseMs, at);
      return clone(entry.dispatch);
    },

    async ack(input) {
      const { result, ...proof } = inputs.ack.parse(input);
      const at = clock();
      const entry = fence(state, proof, at);
      if (result !== undefined) state.write(entry, dispatchWithRunResult(entry.dispatch, result, at));
      state.apply(entry, 'acked', at);
      wakeIfQueued(entry.dispatch.threadId);
      return clone(entry.dispatch);
    },

    async nack(input) {
      const proof = inputs.nack.parse(input);
      const at = clock();
      const entry = fence(state, proof, at);
      const next = afterFailedAttempt({
        dispatch: entry.dispatch,
        at,
        error: proof.error,
        retryAt: proof.retryAt ?? at,
        threadEpoch: state.epochOf(entry.dispatch.threadId),
      });
      state.write(entry, next);
      wakeIfQueued(next.threadId);
      return clone(next);
    },

    async deadLetter(input) {
      const proof = inputs.deadLetter.parse(input);
      const at = clock();
      const entry = fence(state, proof, at);
      state.apply(entry, 'dead_letter', at, { lastError: proof.error });
      wakeIfQueued(entry.dispatch.threadId);
      return clone(entry.dispatch);
    },

    async cancel(input) {
      const { dispatchId } = inputs.cancel.parse({ dispatchId: input });
      const entry = requireEntry(dispatchId);
      if (entry.dispatch.status !== 'queued') {
        throw conflict(
          `dispatch ${dispatchId} is ${entry.dispatch.status}; only a queued dispatch can be cancelled`,
        );
      }
      state.apply(entry, 'cancelled', clock());
      return clone(entry.dispatch);
    },

    async markRequeued(input) {
      const { dispatchId, runId, requeueDispatchId } = inputs.markRequeued.parse(input);
      const entry = requireEntry(dispatchId);
      const { dispatch } = entry;
      if (dispatch.status !== 'dead_letter') {
        throw conflict(`dispatch ${dispatchId} is ${dispatch.status}, not a dead letter`);
      }
      // set once: a later requeue gets the run of the first (updatedAt stays, as purge orders by it)
      if (dispatch.requeuedRunId === undefined) {
        Object.assign(dispatch, { requeuedRunId: runId, requeuedDispatchId: requeueDispatchId });
      }
      return clone(dispatch);
    },

    async extendLease(input) {
      const { leaseMs, ...proof } = inputs.extendLease.parse(input);
      const at = clock();
      checkLeaseDeadline(at, leaseMs);
      const entry = fence(state, proof, at);
      state.apply(entry, 'claimed', at, { leaseUntil: at + leaseMs });
      return clone(entry.dispatch);
    },

    async interrupt(input) {
      const { threadId } = inputs.interrupt.parse({ threadId: input });
      const at = clock();
      const newDispatchEpoch = state.epochOf(threadId) + 1;
      state.epochs.set(threadId, newDispatchEpoch);
      let supersededCount = 0;
      for (const entry of state.byThread.get(threadId)?.values() ?? []) {
        if (entry.dispatch.status !== 'queued') continue;
        state.apply(entry, 'superseded', at);
        supersededCount += 1;
      }
      const activeId = state.claimByThread.get(threadId);
      const active = activeId === undefined ? undefined : state.entries.get(activeId)?.dispatch;
      return {
        newDispatchEpoch,
        ...(active === undefined ? {} : { activeDispatch: clone(active) }),
        supersededCount,
      };
    },

    async supersedeClaimed(input) {
      const { dispatchId } = inputs.supersedeClaimed.parse({ dispatchId: input });
      const entry = requireEntry(dispatchId);
      const { dispatch } = entry;
      if (dispatch.status !== 'claimed')
        throw conflict(`dispatch ${dispatchId} is ${dispatch.status}, not claimed`);
      if (dispatch.dispatchEpoch >= state.epochOf(dispatch.threadId)) {
        throw conflict(`dispatch ${dispatchId} is of its thread's current epoch; interrupt the thread first`);
      }
      state.apply(entry, 'superseded', clock());
      wakeIfQueued(dispatch.threadId);
      return clone(entry.dispatch);
    },

    async recordDispatchStart(input) {
      const proof = inputs.recordDispatchStart.parse(input);
      const at = clock();
      const entry = fence(state, proof, at);
      const patch = { dispatchInstanceId: proof.dispatchInstanceId, runStatus: 'running' as const };
      state.apply(entry, 'claimed', at, patch);
      return clone(entry.dispatch);
    },

    async recordRunResult(input) {
      const { result, ...proof } = inputs.recordRunResult.parse(input);
      const at = clock();
      const entry = fence(state, proof, at);
      state.write(entry, dispatchWithRunResult(entry.dispatch, result, at));
      return clone(entry.dispatch);
    },

    async loadDispatch(input) {
      const { dispatchId } = inputs.loadDispatch.parse({ dispatchId: input });
      const entry = state.entries.get(dispatchId);
      return entry === undefined ? null : clone(entry.dispatch);
    },

    async listDispatches(threadId, query) {
      const { status, ...page } = inputs.listDispatches.parse({ ...query, threadId });
      const { limit, after = 0 } = pageWindow(page);
      const entries = [...(state.byThread.get(page.threadId)?.values() ?? [])]
        .filter((entry) => entry.position > after)
        .filter((entry) => status === undefined || status.includes(entry.dispatch.status))
        .map((entry) => ({ position: entry.position, item: clone(entry.dispatch) }));
      return toPage(entries, limit);
    },

    async countDispatches() {
      inputs.countDispatches.parse({});
      const counts = Object.fromEntries(runDispatchStatusSchema.options.map((status) => [status, 0]));
      for (const [status, entries] of state.byStatus) counts[status] = entries.size;
      return counts as Record<RunDispatchStatus, number>;
    },

    async listDispatchesByStatus(statusInput, query) {
      const { status, ...page } = inputs.listDispatchesByStatus.parse({ ...query, status: statusInput });
      const { limit, after = Number.POSITIVE_INFINITY } = pageWindow(page);
      const entries = [...(state.byStatus.get(status)?.values() ?? [])]
        .filter((entry) => entry.position < after)
        .sort((a, b) => b.position - a.position)
        .map((entry) => ({ position: entry.position, item: clone(entry.dispatch) }));
      return toPage(entries, limit);
    },

    async threadEpoch(input) {
      return state.epochOf(inputs.threadEpoch.parse({ threadId: input }).threadId);
    },

    async reclaimExpiredLeases(input) {
      const { limit } = inputs.reclaimExpiredLeases.parse({ limit: input?.limit });
      const at = clock();
      const expired = [...state.claimed.values()]
        .filter((entry) => entry.dispatch.leaseUntil !== undefined && at > entry.dispatch.leaseUntil)
        .sort(reclaimOrder)
        .slice(0, limit);
      const reclaimed: RunDispatch[] = [];
      for (const entry of expired) {
        const { dispatch } = entry;
        const next = afterFailedAttempt({
          dispatch,
          at,
          error: `lease of ${dispatch.claimedBy} expired`,
          retryAt: at,
          threadEpoch: state.epochOf(dispatch.threadId),
        });
        state.write(entry, next);
        reclaimed.push(clone(next));
      }
      for (const dispatch of reclaimed) wakeIfQueued(dispatch.threadId);
      return reclaimed;
    },

    async purgeTerminal(input) {
      const { olderThan, status } = inputs.purgeTerminal.parse(input);
      const wanted = (dispatch: RunDispatch) =>
        status === undefined
          ? isTerminalDispatchStatus(dispatch.status)
          : (status as RunDispatchStatus[]).includes(dispatch.status);
      let purged = 0;
      for (const entry of [...state.entries.values()]) {
        if (wanted(entry.dispatch) && entry.dispatch.updatedAt < olderThan) {
          state.remove(entry);
          purged += 1;
        }
      }
      return purged;
    },

    async waitForWork(input) {
      const { timeoutMs, signal } = inputs.waitForWork.parse(input);
      if (signal?.aborted) return false;
      // Work that arrived between the caller's empty claim and this call: no need to sleep.
      if (selectClaimable(state, clock(), 1).length > 0) return true;
      return waitForSignal({ waiters: idleWaiters, waitMs: timeoutMs, signal });
    },
  };
}
