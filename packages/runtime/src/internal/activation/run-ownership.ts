import { randomUUID } from 'node:crypto';
import { AwakenError, type RunLease, type RunRecord, parseWith, runLeaseSchema } from '@awaken/contract';
import type { RuntimeServices } from '../session/run-session';

/**
 * The lease one activation holds on its run: acquired before anything is read or written (or handed
 * in by a caller that holds it), renewed while the activation runs, released when it ends.
 */
/** What a joint acquisition (`AcquireWithFence`) read and raised with the lease it granted. */
export interface FencedAcquisition {
  /** The event log's last seq once its fence was raised to the lease's. */
  lastSeq: number;
  /** The run record read under the lease. */
  run: RunRecord;
}

export interface RunOwnership {
  /** The lease, once acquired. */
  readonly lease: RunLease | undefined;
  /**
   * The joint acquisition handed in with the lease, if any: the log is fenced at the lease already
   * and the record was read under it (one activation, one load).
   */
  readonly fenced: FencedAcquisition | undefined;
  /** Acquires the run (once; later calls return the same lease). `run_busy` while another holds it. */
  acquire(): Promise<RunLease>;
  /**
   * Holds `granted` — the lease a joint creation of the run granted (`createRunWithLease`) — as if
   * `acquire` had returned it: renewed, released and fenced the same.
   */
  adopt(granted: RunLease): void;
  /** Renews every `renewEveryMs` until `stop`; a `stale_claim` answer calls `onLost`. */
  keepAlive(handlers: { onLost(error: unknown): void; onTick(): void }): void;
  /** Stops renewing and releases the lease (best effort; a handed-in lease is left to its holder). */
  release(): Promise<void>;
}

/** A new lease owner's name: one per activation. */
export function newLeaseOwner(): string {
  return `awaken-runtime:${randomUUID()}`;
}

export function createRunOwnership(
  services: RuntimeServices,
  runId: string,
  handedIn?: RunLease,
  acquired?: FencedAcquisition,
): RunOwnership {
  let lease: RunLease | undefined;
  let acquiring: Promise<RunLease> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let released = false;

  if (handedIn !== undefined) {
    lease = parseWith(runLeaseSchema, handedIn, 'lease');
    if (lease.runId !== runId) {
      throw new AwakenError('validation_failed', `invalid lease: it is for run ${lease.runId}, not ${runId}`);
    }
  }
  if (acquired !== undefined && (handedIn === undefined || acquired.run.runId !== runId)) {
    throw new AwakenError(
      'validation_failed',
      `invalid acquired: it is not the acquisition of run ${runId}'s lease`,
      {
        details: { field: 'acquired' },
      },
    );
  }

  return {
    get lease() {
      return lease;
    },
    get fenced() {
      return acquired;
    },
    acquire() {
      if (lease) return Promise.resolve(lease);
      acquiring ??= services.store
        .acquireRun(runId, { owner: newLeaseOwner(), leaseMs: services.lease.leaseMs })
        .then((granted) => {
          lease = granted;
          return granted;
        });
      return acquiring;
    },
    adopt(granted) {
      if (lease !== undefined || acquiring !== undefined)
        throw new AwakenError('conflict', `run ${runId}: this activation holds a lease already`);
      lease = granted;
    },
    keepAlive(handlers) {
      if (handedIn !== undefined || timer !== undefined) return;
      let renewing = false;
      timer = setInterval(() => {
        handlers.onTick();
        if (!lease || renewing || released) return;
        renewing = true;
        const { leaseUntil: _until, ...proof } = lease;
        services.store
          .renewRun({ ...proof, leaseMs: services.lease.leaseMs })
          .then((renewed) => {
            lease = renewed;
          })
          .catch((error: unknown) => {
            // a blip is retried at the next tick; the fence protects every write meanwhile
            if (AwakenError.hasCode(error, 'stale_claim')) handlers.onLost(error);
          })
          .finally(() => {
            renewing = false;
          });
      }, services.lease.renewEveryMs);
      timer.unref();
    },
    async release() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (released || handedIn !== undefined || !lease) return;
      released = true;
      const { leaseUntil: _until, ...proof } = lease;
      await services.store.releaseRun(proof).catch(() => false);
    },
  };
}
