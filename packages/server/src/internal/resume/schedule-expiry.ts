import { AwakenError, type RunRecord, ticketExpired } from '@awaken/contract';
import { readToolCallStates } from '@awaken/runtime';
import type { ServiceContext } from '../service/service-context';

/** The dedupe key of the dispatch that moves a run on when one of its tickets expires. */
export const expiryDedupeKey = (runId: string, ticketId: string) => `expire:${runId}:${ticketId}`;

/** The waiting ticket of the run that expires first, if any ticket expires. */
export function nextExpiry(record: RunRecord): { ticketId: string; expiresAt: number } | undefined {
  if (record.status !== 'waiting') return undefined;
  let next: { ticketId: string; expiresAt: number } | undefined;
  for (const call of readToolCallStates(record)) {
    const expiresAt = call.status === 'suspended' ? call.ticket?.expiresAt : undefined;
    if (expiresAt === undefined || !call.ticket) continue;
    if (next === undefined || expiresAt < next.expiresAt)
      next = { ticketId: call.ticket.suspension.id, expiresAt };
  }
  return next;
}

/** True when the waiting run holds a ticket whose `expiresAt` is at or before `now`: a resume has work. */
export function hasExpiredTicket(record: RunRecord, now: number): boolean {
  if (record.status !== 'waiting') return false;
  return readToolCallStates(record).some(
    (call) => call.status === 'suspended' && ticketExpired(call.ticket, now),
  );
}

/**
 * Schedules the expiry of a waiting run in the mailbox: a dispatch for the same run id that becomes
 * available at the earliest `expiresAt` of its tickets (deduplicated per ticket). It is durable like
 * any dispatch, so the run moves on at that time even if every process stopped meanwhile: whichever
 * worker claims it resumes the run, and the runtime resolves the expired tickets. A ticket answered
 * in time leaves a dispatch that finds nothing to do.
 */
export async function scheduleExpiry(context: ServiceContext, record: RunRecord): Promise<void> {
  const next = nextExpiry(record);
  if (!next) return;
  try {
    await context.stores.mailbox.enqueue({
      threadId: record.threadId,
      runId: record.runId,
      dedupeKey: expiryDedupeKey(record.runId, next.ticketId),
      availableAt: next.expiresAt,
      maxAttempts: context.config.maxAttempts,
    });
  } catch (error) {
    // already scheduled (the same ticket's dispatch is queued or running)
    if (!AwakenError.hasCode(error, 'dedupe_conflict')) throw error;
  }
}
