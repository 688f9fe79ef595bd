import type { SuspendTicket } from './suspension';

/**
 * True when `ticket` carries an `expiresAt` that is at or before `now` (epoch ms). A ticket without
 * `expiresAt`, or a check without `now`, never expires.
 */
export function ticketExpired(ticket: Pick<SuspendTicket, 'expiresAt'> | undefined, now?: number): boolean {
  return ticket?.expiresAt !== undefined && now !== undefined && ticket.expiresAt <= now;
}

/**
 * When a ticket raised at `now` expires, given the timeouts that may apply (milliseconds), most
 * specific first (a permission rule's, the tool's, the agent's default): the first one set wins.
 * Undefined when none is set (the ticket waits for ever).
 */
export function ticketExpiresAt(now: number, ...timeouts: Array<number | undefined>): number | undefined {
  const timeout = timeouts.find((value) => value !== undefined);
  return timeout === undefined ? undefined : now + timeout;
}

/** What the model reads for a call whose approval nobody answered in time (the call never ran). */
export function expiredCallMessage(toolName: string): string {
  return `The approval for this call to "${toolName}" expired before anyone answered; the call did not run`;
}
