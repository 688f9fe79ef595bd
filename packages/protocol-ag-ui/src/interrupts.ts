import {
  CLIENT_TOOL_ACTION,
  type DecisionView,
  type JsonSchema,
  type RunWaitingTicket,
  waitingTicketOf,
} from '@awaken/contract';
import type { AgUiInterrupt } from './ag-ui-event';

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

/**
 * The `responseSchema` an interrupt advertises: for an approval AG-UI's convention
 * `{approved: boolean, reason?: string, editedArgs?: object}` (`editedArgs` only where the ticket
 * allows editing); for any other ticket its own schema (the payload is the answer itself).
 */
export function responseSchemaOf(ticket: OpenTicket): JsonSchema | undefined {
  if (!isApprovalTicket(ticket)) return ticket.responseSchema;
  return {
    type: 'object',
    properties: {
      approved: { type: 'boolean' },
      reason: { type: 'string' },
      ...(allowsEditing(ticket) ? { editedArgs: { type: 'object' } } : {}),
    },
    required: ['approved'],
  };
}

/** One AG-UI interrupt per open ticket: id = ticket id, `reason: "tool_call"` with its call id. */
export function toInterrupt(ticket: OpenTicket): AgUiInterrupt {
  const schema = responseSchemaOf(ticket);
  return {
    id: ticket.ticketId,
    reason: 'tool_call',
    message: ticket.message,
    toolCallId: ticket.toolCallId,
    ...(schema ? { responseSchema: schema } : {}),
    ...(ticket.expiresAt === undefined ? {} : { expiresAt: new Date(ticket.expiresAt).toISOString() }),
    metadata: { toolName: ticket.toolName, action: ticket.action, arguments: ticket.arguments ?? null },
  };
}
