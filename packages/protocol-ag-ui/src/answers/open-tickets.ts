import {
  CLIENT_TOOL_ACTION,
  type DecisionView,
  type RunWaitingTicket,
  waitingTicketOf,
} from '@awaken/contract';

/** A waiting ticket with its expiry (epoch ms), as the stored call holds it. */
export type OpenTicket = RunWaitingTicket & { expiresAt?: number };

/** The tickets a run waits on, in call order, with their expiry. */
export function openTicketsOf(view: Pick<DecisionView, 'calls'>): OpenTicket[] {
  const tickets: OpenTicket[] = [];
  for (const call of view.calls) {
    const ticket = waitingTicketOf(call);
    if (!ticket) continue;
    const expiresAt = call.ticket?.expiresAt;
    tickets.push(expiresAt === undefined ? ticket : { ...ticket, expiresAt });
  }
  return tickets;
}

/**
 * True when the ticket is a frontend tool call: AG-UI streams the call and the client answers with a
 * `role:"tool"` message; it is never an interrupt.
 */
export function isFrontendTicket(ticket: Pick<RunWaitingTicket, 'action'>): boolean {
  return ticket.action === CLIENT_TOOL_ACTION;
}

/** True when the ticket is a yes/no approval of the call (it re-runs the call once approved). */
export function isApprovalTicket(ticket: Pick<RunWaitingTicket, 'resumeMode'>): boolean {
  return ticket.resumeMode === 'replay_tool_call';
}

/** True when the ticket's own schema lets the human replace the call's arguments. */
export function allowsEditing(ticket: Pick<RunWaitingTicket, 'responseSchema'>): boolean {
  const properties = ticket.responseSchema?.properties;
  return typeof properties === 'object' && properties !== null && 'editedArguments' in properties;
}
