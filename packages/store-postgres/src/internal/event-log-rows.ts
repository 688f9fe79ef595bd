import { AwakenError } from '@awaken/contract';
import type { Tx } from './db';
import { key } from './keys';

/** A run's log row as locked: the last seq, the highest fence seen, and whether it was finished. */
export interface LogRow {
  lastSeq: number;
  fence: number;
  finished: boolean;
}

/**
 * Locks (creating) the log row of `runId`. A log whose expiry has passed is dropped first (its events,
 * its inbox) and starts afresh, as if it never existed.
 */
export async function lockLog(tx: Tx, s: string, runId: string): Promise<LogRow> {
  const at = await tx.now();
  const rows = await tx.query<{ last_seq: string; fence: string; expires_at: string | null }>(
    `INSERT INTO ${s}.event_logs (run_id) VALUES ($1)
     ON CONFLICT (run_id) DO UPDATE SET run_id = EXCLUDED.run_id
     RETURNING last_seq, fence, expires_at`,
    [key(runId)],
  );
  const row = rows[0];
  if (row === undefined) throw new AwakenError('store_failure', 'postgres: the event log row vanished');
  if (row.expires_at !== null && at >= Number(row.expires_at)) {
    await tx.query(`DELETE FROM ${s}.events WHERE run_id = $1`, [key(runId)]);
    await tx.query(
      `UPDATE ${s}.event_logs SET last_seq = 0, fence = 0, expires_at = NULL WHERE run_id = $1`,
      [key(runId)],
    );
    await tx.query(`DELETE FROM ${s}.inboxes WHERE run_id = $1 AND expires_at <= $2`, [key(runId), at]);
    return { lastSeq: 0, fence: 0, finished: false };
  }
  return { lastSeq: Number(row.last_seq), fence: Number(row.fence), finished: row.expires_at !== null };
}

/** Rejects a write fence lower than the log's with `stale_claim`; returns it. */
export function checkLogFence(runId: string, log: LogRow, fence: number | undefined): number {
  const given = fence ?? 0;
  if (given < log.fence) {
    throw new AwakenError(
      'stale_claim',
      `the event log of run ${runId} is at fence ${log.fence}, the writer has ${given}`,
      {
        details: { runId, fence: log.fence, given },
      },
    );
  }
  return given;
}

/** Drops every finished log (and inbox) whose expiry has passed: run now and then by `finish`. */
export async function sweepExpired(tx: Tx, s: string): Promise<void> {
  const at = await tx.now();
  // the events go with their log (no foreign key since migration 6: the statement deletes them)
  await tx.query(
    `WITH gone AS (DELETE FROM ${s}.event_logs WHERE expires_at <= $1 RETURNING run_id)
     DELETE FROM ${s}.events e USING gone WHERE e.run_id = gone.run_id`,
    [at],
  );
  await tx.query(`DELETE FROM ${s}.inboxes WHERE expires_at <= $1`, [at]);
}
