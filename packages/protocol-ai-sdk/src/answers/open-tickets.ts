import type { RunWaitingTicket, SuspendTicket } from '@awaken/contract';

/**
 * True when a ticket asks a yes/no approval — its call re-runs once approved (`replay_tool_call`) —
 * and so becomes a `tool-approval-request`. Every other ticket (a client tool, a request for a
 * value) leaves the tool part `input-available` and is answered with `addToolOutput`.
 */
export function isApprovalTicket(ticket: Pick<SuspendTicket | RunWaitingTicket, 'resumeMode'>): boolean {
  return ticket.resumeMode === 'replay_tool_call';
}
