import { randomUUID } from 'node:crypto';
import { AwakenError, type RunLease, parseWith, runLeaseSchema } from '@awaken/contract';
import type { RuntimeServices } from '../session/run-session';

/**
 * The lease one activation holds on its run: acquired before anything is read or written (or handed
 * in by a caller that holds it), renewed while the activation runs, released when it ends.
 */
export interface RunOwnership {
  /** The lease, once acquired. */
  readonly lease: RunLease | undefined;
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

  return {
    get lease() {
      return lease;
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
