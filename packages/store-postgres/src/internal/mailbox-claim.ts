import { randomUUID } from 'node:crypto';
import { AwakenError, type RunDispatch } from '@awaken/contract';
import type { Tx } from './db';
import { afterFailedAttempt, moved, parseDispatch, saveDispatch } from './dispatch-rows';

/** Rejects a lease whose deadline would not be a safe integer (before anything is written). */
export function checkLeaseDeadline(at: number, leaseMs: number): void {
  if (!Number.isSafeInteger(at + leaseMs)) {
    throw new AwakenError('validation_failed', `leaseMs ${leaseMs} puts the lease deadline out of range`);
  }
}

/** The dispatch claimed by `workerId` until `at + leaseMs`, under a fresh token. */
export function claimed(dispatch: RunDispatch, workerId: string, leaseMs: number, at: number): RunDispatch {
  return moved(dispatch, 'claimed', at, {
    claimToken: randomUUID(),
    claimedBy: workerId,
    leaseUntil: at + leaseMs,
  });
}

/**
 * Reclaims up to `limit` claims whose lease ended before now (`now > leaseUntil`), earliest deadline
 * first, equal deadlines in enqueue order. Their threads are locked in thread order (two sweepers
 * never deadlock), then the claims are read again under the locks, so each is reclaimed once.
 */
export async function reclaimExpired(tx: Tx, s: string, limit: number): Promise<RunDispatch[]> {
  const at = await tx.now();
  const candidates = await tx.query<{ thread_id: string }>(
    `SELECT thread_id FROM ${s}.dispatches WHERE status = 'claimed' AND lease_until < $1
     ORDER BY lease_until, seq LIMIT $2`,
    [at, limit],
  );
  if (candidates.length === 0) return [];
  const threads = await tx.query<{ thread_id: string; epoch: string }>(
    `SELECT thread_id, epoch FROM ${s}.mailbox_threads WHERE thread_id = ANY($1) ORDER BY thread_id FOR UPDATE`,
    [[...new Set(candidates.map((row) => row.thread_id))]],
  );
  const epochs = new Map(threads.map((row) => [row.thread_id, Number(row.epoch)]));
  const rows = await tx.query<{ thread_id: string; doc: string }>(
    `SELECT thread_id, doc FROM ${s}.dispatches
     WHERE status = 'claimed' AND lease_until < $1 AND thread_id = ANY($2)
     ORDER BY lease_until, seq LIMIT $3`,
    [at, [...epochs.keys()], limit],
  );
  const reclaimed: RunDispatch[] = [];
  for (const row of rows) {
    const dispatch = parseDispatch(row.doc);
    const next = afterFailedAttempt(dispatch, {
      at,
      error: `lease of ${dispatch.claimedBy} expired`,
      retryAt: at,
      threadEpoch: epochs.get(row.thread_id) ?? 0,
    });
    await saveDispatch(tx, s, next, dispatch);
    reclaimed.push(next);
  }
  return reclaimed;
}
