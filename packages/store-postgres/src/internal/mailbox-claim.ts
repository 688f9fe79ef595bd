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

/** Writes a batch of claims, the dispatches and their threads' claim, in one statement whatever the batch. */
async function saveClaims(
  tx: Tx,
  s: string,
  rows: { key: string; threadKey: string; dispatch: RunDispatch }[],
) {
  if (rows.length === 0) return;
  const first = rows[0] as (typeof rows)[number];
  await tx.query(
    `WITH claimed AS (
       UPDATE ${s}.dispatches d SET status = 'claimed', lease_until = $4, updated_at = $5, doc = u.doc
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, doc, thread_id) WHERE d.dispatch_id = u.id
       RETURNING u.id, u.thread_id)
     UPDATE ${s}.mailbox_threads t SET claimed_id = claimed.id FROM claimed WHERE t.thread_id = claimed.thread_id`,
    [
      rows.map((row) => row.key),
      rows.map((row) => JSON.stringify(row.dispatch)),
      rows.map((row) => row.threadKey),
      first.dispatch.leaseUntil,
      first.dispatch.updatedAt,
    ],
  );
}

const SCAN = 64;

/**
 * Claims up to `limit` due queued dispatches, priority then enqueue order, one per thread and none of
 * a thread holding a claim. Candidate threads are read from the partial `dispatches_ready` index, then
 * locked with `FOR UPDATE SKIP LOCKED` (a thread another transaction holds is skipped, never waited
 * for), and each locked thread's head is read again under its lock: exactly one claimer wins a
 * dispatch, and concurrent claimers spread over different threads.
 */
export async function claimDue(
  tx: Tx,
  s: string,
  input: { workerId: string; limit: number; leaseMs: number },
): Promise<RunDispatch[]> {
  const at = await tx.now();
  checkLeaseDeadline(at, input.leaseMs);
  // The threads of the first due dispatches (priority, then enqueue order; the partial index
  // dispatches_ready): up to `limit` of those without a claim are locked in that order, skipping any
  // another transaction holds, so concurrent claimers take different threads instead of waiting.
  const locked = await tx.query<{ thread_id: string }>(
    `SELECT t.thread_id FROM ${s}.mailbox_threads t
     JOIN (
       SELECT DISTINCT ON (thread_id) thread_id, priority, seq FROM (
         SELECT d.thread_id, d.priority, d.seq FROM ${s}.dispatches d
         WHERE d.status = 'queued' AND d.available_at <= $1
           AND NOT EXISTS (SELECT 1 FROM ${s}.mailbox_threads c WHERE c.thread_id = d.thread_id AND c.claimed_id IS NOT NULL)
         ORDER BY d.priority, d.seq LIMIT $2) due
       ORDER BY thread_id, priority, seq) heads ON heads.thread_id = t.thread_id
     WHERE t.claimed_id IS NULL
     ORDER BY heads.priority, heads.seq
     LIMIT $3
     FOR UPDATE OF t SKIP LOCKED`,
    [at, Math.max(SCAN, input.limit * 4), input.limit],
  );
  if (locked.length === 0) return [];
  const heads = await tx.query<{ dispatch_id: string; thread_id: string; doc: string }>(
    `SELECT * FROM (
       SELECT DISTINCT ON (thread_id) dispatch_id, thread_id, doc, priority, seq FROM ${s}.dispatches
       WHERE thread_id = ANY($1) AND status = 'queued' AND available_at <= $2
       ORDER BY thread_id, priority, seq) heads
     ORDER BY priority, seq LIMIT $3`,
    [locked.map((row) => row.thread_id), at, input.limit],
  );
  const rows = heads.map((row) => ({
    key: row.dispatch_id,
    threadKey: row.thread_id,
    dispatch: claimed(parseDispatch(row.doc), input.workerId, input.leaseMs, at),
  }));
  await saveClaims(tx, s, rows);
  return rows.map((row) => row.dispatch);
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
