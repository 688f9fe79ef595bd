import { type RunRecord, type RunWaitingTicket, readToolCallStates, waitingTicketOf } from '@awaken/contract';

/** A question a waiting run asks, with when it stops taking answers (epoch ms), if it does. */
export type OpenTicket = RunWaitingTicket & { expiresAt?: number };

/** True when the ticket asks yes/no: its call re-runs once approved. */
export function isApprovalTicket(ticket: Pick<OpenTicket, 'resumeMode'>): boolean {
  return ticket.resumeMode === 'replay_tool_call';
}

/**
 * The tickets a stored run waits on now, in call order, each with its expiry: what an
 * `input-required` status shows and what a continuation may answer. A run that does not wait has none.
 */
export function openTicketsOf(record: Pick<RunRecord, 'status' | 'state'>): OpenTicket[] {
  if (record.status !== 'waiting') return [];
  return readToolCallStates(record).flatMap((call) => {
    const ticket = waitingTicketOf(call);
    if (!ticket) return [];
    const expiresAt = call.ticket?.expiresAt;
    return [expiresAt === undefined ? ticket : { ...ticket, expiresAt }];
  });
}
