import { AwakenError, type ClaimProof, type RunDispatch, runDispatchSchema } from '@awaken/contract';
import type { Tx } from './db';
import { notFound } from './errors';
import { key } from './keys';

/** A claimed dispatch's thread row as locked: its epoch and claim. */
export interface ThreadLock {
  epoch: number;
  claimedId: string | null;
}

/** Parses a stored dispatch document (checked against the contract, so a corrupt row is a store_failure). */
export function parseDispatch(doc: string): RunDispatch {
  const parsed = runDispatchSchema.safeParse(JSON.parse(doc));
  if (!parsed.success) throw new AwakenError('store_failure', `postgres: a stored dispatch is malformed`);
  return parsed.data;
}

/** Locks the mailbox row of a thread (creating it), so every write to its dispatches is serialized. */
export async function lockThread(tx: Tx, s: string, threadId: string): Promise<ThreadLock> {
  const rows = await tx.query<{ epoch: string; claimed_id: string | null }>(
    `INSERT INTO ${s}.mailbox_threads (thread_id) VALUES ($1)
     ON CONFLICT (thread_id) DO UPDATE SET thread_id = EXCLUDED.thread_id
     RETURNING epoch, claimed_id`,
    [key(threadId)],
  );
  return { epoch: Number(rows[0]?.epoch ?? 0), claimedId: rows[0]?.claimed_id ?? null };
}

/**
 * Locks the thread of a dispatch, then reads the dispatch (thread row first, always: the lock order
 * every mailbox write follows, so two writes never deadlock). `not_found` when it does not exist.
 */
export async function lockDispatch(
  tx: Tx,
  s: string,
  dispatchId: string,
): Promise<{ dispatch: RunDispatch; thread: ThreadLock }> {
  const threads = await tx.query<{ epoch: string; claimed_id: string | null }>(
    `SELECT epoch, claimed_id FROM ${s}.mailbox_threads
     WHERE thread_id = (SELECT thread_id FROM ${s}.dispatches WHERE dispatch_id = $1) FOR UPDATE`,
    [key(dispatchId)],
  );
  const rows = await tx.query<{ doc: string }>(`SELECT doc FROM ${s}.dispatches WHERE dispatch_id = $1`, [
    key(dispatchId),
  ]);
  const thread = threads[0];
  if (rows[0] === undefined || thread === undefined) throw notFound('dispatch', dispatchId);
  return {
    dispatch: parseDispatch(rows[0].doc),
    thread: { epoch: Number(thread.epoch), claimedId: thread.claimed_id },
  };
}

/**
 * Writes a dispatch's document and index columns, frees its thread when a claim ended, and NOTIFYs
 * `wakeChannel` (on commit) when that may have made a dispatch claimable: it is queued itself, or a
 * claim ended on a thread with queued work. One statement.
 */
export async function saveDispatch(
  tx: Tx,
  s: string,
  dispatch: RunDispatch,
  was: RunDispatch,
  wakeChannel?: string,
): Promise<void> {
  const claimEnded = was.status === 'claimed' && dispatch.status !== 'claimed';
  await tx.query(
    `WITH saved AS (
       UPDATE ${s}.dispatches SET status = $3, available_at = $4, lease_until = $5, updated_at = $6, doc = $7
       WHERE dispatch_id = $1 RETURNING dispatch_id),
     freed AS (
       UPDATE ${s}.mailbox_threads SET claimed_id = NULL WHERE $8 AND thread_id = $2 AND claimed_id = $1
       RETURNING thread_id)
     SELECT pg_notify($9, '') WHERE $9::text IS NOT NULL AND ($3 = 'queued' OR ($8 AND EXISTS (
       SELECT 1 FROM ${s}.dispatches WHERE thread_id = $2 AND status = 'queued' AND dispatch_id <> $1)))`,
    [
      key(dispatch.dispatchId),
      key(dispatch.threadId),
      dispatch.status,
      dispatch.availableAt,
      dispatch.leaseUntil ?? null,
      dispatch.updatedAt,
      JSON.stringify(dispatch),
      claimEnded,
      wakeChannel ?? null,
    ],
  );
}

export function staleClaim(proof: ClaimProof, why: string): AwakenError {
  return new AwakenError('stale_claim', `dispatch ${proof.dispatchId}: ${why}`, {
    details: { dispatchId: proof.dispatchId, reason: why },
  });
}

/**
 * The fencing check of claimant writes: claimed under this very token, lease held at the store
 * clock (`now <= leaseUntil`), epoch the thread's current one; otherwise `stale_claim`.
 */
export function checkFence(dispatch: RunDispatch, thread: ThreadLock, proof: ClaimProof, now: number): void {
  if (dispatch.status !== 'claimed') throw staleClaim(proof, `it is ${dispatch.status}, not claimed`);
  if (dispatch.claimToken !== proof.claimToken) throw staleClaim(proof, 'the claim token is not current');
  if (dispatch.leaseUntil === undefined || now > dispatch.leaseUntil)
    throw staleClaim(proof, 'the lease expired');
  if (dispatch.dispatchEpoch !== thread.epoch) {
    throw staleClaim(proof, 'the thread was interrupted (epoch moved on)');
  }
}

/** The dispatch moved to `status` at `at` with `patch`; a claim's token and lease go when it ends. */
export function moved(
  dispatch: RunDispatch,
  status: RunDispatch['status'],
  at: number,
  patch: Partial<RunDispatch> = {},
): RunDispatch {
  const next: RunDispatch = { ...dispatch, ...patch, status, updatedAt: at };
  if (status !== 'claimed') {
    delete next.claimToken;
    delete next.leaseUntil;
  }
  return next;
}

/** After an attempt ended without an ack (nack, expired lease): superseded, dead letter or queued at `retryAt`. */
export function afterFailedAttempt(
  dispatch: RunDispatch,
  input: { at: number; error: string; retryAt: number; threadEpoch: number },
): RunDispatch {
  const attemptCount = dispatch.attemptCount + 1;
  const patch = { attemptCount, lastError: input.error };
  if (dispatch.dispatchEpoch < input.threadEpoch) return moved(dispatch, 'superseded', input.at, patch);
  if (attemptCount >= dispatch.maxAttempts) return moved(dispatch, 'dead_letter', input.at, patch);
  return moved(dispatch, 'queued', input.at, { ...patch, availableAt: input.retryAt });
}
