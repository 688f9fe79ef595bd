import type { RunWaitingTicket } from '../run/run-waiting-state';
import { waitingTicketOf } from '../run/waiting-ticket-of';
import type { ToolCallState } from '../tool/tool-call-state';
import { type KindedTicket, questionKindOf } from './question-kind';

/**
 * A question a run waits on now, as every door shows it: the waiting ticket of one suspended call
 * (ticket and call ids, tool, arguments, message, response schema, resume mode, expiry).
 */
export type OpenTicket = RunWaitingTicket;

/**
 * The tickets a run waits on now, in call order: one per suspended call that holds a ticket. Built
 * from a decision view (`decisionViewOf(record)` or a live session's view), so a finished run shows
 * none and every door sees the same questions.
 */
export function openTicketsOf(view: { calls: Iterable<ToolCallState> }): OpenTicket[] {
  const tickets: OpenTicket[] = [];
  for (const call of view.calls) {
    const ticket = waitingTicketOf(call);
    if (ticket) tickets.push(ticket);
  }
  return tickets;
}

/**
 * True when a ticket asks a yes/no approval of its call (`questionKindOf` says `approval`): the call
 * re-runs once approved (`replay_tool_call`), and is answered `{approved, reason?, editedArguments?}`.
 * Every other ticket (a client tool, a request for a value, an `indeterminate` call — which replays
 * on `retry` but is no approval) is answered with a value.
 */
export function isApprovalTicket(ticket: KindedTicket): boolean {
  return questionKindOf(ticket) === 'approval';
}

/** True when the ticket's own response schema lets a human replace the call's arguments. */
export function allowsEditing(ticket: Pick<RunWaitingTicket, 'responseSchema'>): boolean {
  const properties = ticket.responseSchema?.properties;
  return typeof properties === 'object' && properties !== null && 'editedArguments' in properties;
}
