/** A question a waiting run asks (the API's `WaitingTicket`), as far as the console reads it. */
export interface Ticket {
  ticketId: string;
  toolCallId: string;
  toolName: string;
  action: string;
  message: string;
  arguments?: unknown;
  parameters?: unknown;
  responseSchema?: { properties?: Record<string, unknown> } & Record<string, unknown>;
  resumeMode?: string;
  expiresAt?: number;
  /** Four-eyes: whoever started the run cannot answer it. */
  requiresDistinctApprover?: boolean;
}

/**
 * The key of a ticket across the tenant: ticket ids repeat across runs (`permission:1:call_1_…` is
 * the first call of every run that deletes a file), so a ticket is always named by its run too.
 */
export function ticketKey(runId: string, ticketId: string): string {
  return `${runId}\u0000${ticketId}`;
}

/** The suspension action of a crash-recovery question (a non-idempotent call found running). */
export const INDETERMINATE = 'indeterminate';

/** True for a yes/no approval: the call runs again once approved. */
export function isApproval(ticket: Pick<Ticket, 'resumeMode' | 'action' | 'responseSchema'>): boolean {
  if (ticket.resumeMode !== undefined) return ticket.resumeMode === 'replay_tool_call';
  return 'approved' in (ticket.responseSchema?.properties ?? {}) || ticket.action === 'confirm';
}

/** True when the ticket's answer may replace the call's arguments. */
export function allowsEditing(ticket: Pick<Ticket, 'responseSchema'>): boolean {
  const properties = ticket.responseSchema?.properties;
  return properties === undefined || 'editedArguments' in properties;
}
