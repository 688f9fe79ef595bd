import {
  AwakenError,
  type RunDispatch,
  type mailboxStoreInputs as inputs,
  queuedDispatch,
} from '@awaken/contract';
import type { Tx } from './db';
import { lockThread, parseDispatch } from './dispatch-rows';
import { conflict } from './errors';
import { key } from './keys';
import { checkLeaseDeadline, claimed } from './mailbox-claim';

/** Who claims a dispatch as it is enqueued (`enqueueAndClaim`), and the start it records. */
export interface ClaimOnEnqueue {
  workerId: string;
  leaseMs: number;
  dispatchInstanceId?: string;
}

/** Refuses an id that exists, then a dedupe key a live dispatch of the thread holds (in that order, as every backend). */
async function checkNew(
  tx: Tx,
  s: string,
  parsed: ReturnType<typeof inputs.enqueue.parse>,
  dispatchId: string,
): Promise<void> {
  if (parsed.dedupeKey === undefined) return;
  const existing = await tx.query(`SELECT 1 FROM ${s}.dispatches WHERE dispatch_id = $1`, [key(dispatchId)]);
  if (existing.length > 0) throw conflict(`dispatch ${dispatchId} already exists`);
  const holders = await tx.query<{ doc: string }>(
    `SELECT doc FROM ${s}.dispatches WHERE thread_id = $1 AND dedupe_key = $2 AND status IN ('queued', 'claimed')`,
    [key(parsed.threadId), key(parsed.dedupeKey)],
  );
  const holder = holders[0] === undefined ? undefined : parseDispatch(holders[0].doc).dispatchId;
  if (holder !== undefined) {
    throw new AwakenError(
      'dedupe_conflict',
      `thread ${parsed.threadId} already has live dispatch ${holder} with dedupe key ${parsed.dedupeKey}`,
      { details: { threadId: parsed.threadId, dedupeKey: parsed.dedupeKey, dispatchId: holder } },
    );
  }
}

/**
 * Enqueues one dispatch in `tx` under its thread's lock. With `claim` and no claim on the thread, the
 * dispatch is stored claimed at once (and the thread marked claimed by it), waking nobody; otherwise it
 * is stored queued, and a due one notifies `waitForWork` callers.
 */
export async function insertDispatch(
  tx: Tx,
  s: string,
  parsed: ReturnType<typeof inputs.enqueue.parse>,
  dispatchId: string,
  claim?: ClaimOnEnqueue,
): Promise<RunDispatch> {
  const thread = await lockThread(tx, s, parsed.threadId);
  const at = await tx.now();
  if (claim) checkLeaseDeadline(at, claim.leaseMs);
  await checkNew(tx, s, parsed, dispatchId);
  const queued = queuedDispatch(parsed, dispatchId, thread.epoch, at);
  let dispatch = queued;
  if (claim && thread.claimedId === null) {
    dispatch = claimed(queued, claim.workerId, claim.leaseMs, at);
    if (claim.dispatchInstanceId !== undefined) {
      dispatch = { ...dispatch, dispatchInstanceId: claim.dispatchInstanceId, runStatus: 'running' };
    }
  }
  const inserted = await tx.query(
    `INSERT INTO ${s}.dispatches (dispatch_id, thread_id, status, priority, available_at, lease_until, updated_at, dedupe_key, doc)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING seq`,
    [
      key(dispatchId),
      key(parsed.threadId),
      dispatch.status,
      dispatch.priority,
      dispatch.availableAt,
      dispatch.leaseUntil ?? null,
      at,
      parsed.dedupeKey === undefined ? null : key(parsed.dedupeKey),
      JSON.stringify(dispatch),
    ],
  );
  if (inserted.length === 0) throw conflict(`dispatch ${dispatchId} already exists`);
  if (dispatch.status === 'claimed') {
    await tx.query(`UPDATE ${s}.mailbox_threads SET claimed_id = $2 WHERE thread_id = $1`, [
      key(parsed.threadId),
      key(dispatchId),
    ]);
  } else if (dispatch.availableAt <= at) tx.notify('work', '');
  return dispatch;
}
