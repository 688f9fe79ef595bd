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
  /** A question asked inside a sub-agent: the inner call the answer is forwarded to. */
  nested?: NestedQuestion;
}

/**
 * The inner call a parent ticket mirrors (the API's `nested`): `runId` / `ticketId` / `toolCallId`
 * address the next hop down; `toolName`, `arguments` and `agentPath` name the innermost call.
 */
export interface NestedQuestion {
  runId: string;
  ticketId: string;
  toolCallId: string;
  toolName: string;
  arguments?: unknown;
  agentPath: string[];
}

/** What a human is asked about: the innermost call of a nested question, else the ticket's own. */
export function askedCall(ticket: Pick<Ticket, 'toolName' | 'arguments' | 'nested'>): {
  toolName: string;
  arguments: unknown;
} {
  return ticket.nested
    ? { toolName: ticket.nested.toolName, arguments: ticket.nested.arguments }
    : { toolName: ticket.toolName, arguments: ticket.arguments };
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
/** The suspension action of a fork's question before it repeats a call its source already ran. */
export const FORK_REPEAT = 'fork_repeat';

/** True for a question answered retry / result / fail: a crashed call's, or a fork's before a repeat. */
export function isIndeterminate(ticket: Pick<Ticket, 'action'>): boolean {
  return ticket.action === INDETERMINATE || ticket.action === FORK_REPEAT;
}

/** True for a fork's question before it runs again a call that must not run twice. */
export function isForkRepeat(ticket: Pick<Ticket, 'action'>): boolean {
  return ticket.action === FORK_REPEAT;
}

/** The result the source run recorded for a fork's repeated call (the first listed: same arguments). */
export function recordedResultOf(ticket: Pick<Ticket, 'parameters'>): unknown {
  const recorded = (ticket.parameters as { recorded?: Array<{ result?: unknown }> } | undefined)?.recorded;
  return recorded?.[0]?.result;
}

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
