import { type JsonSchema, type OpenTicket, allowsEditing, isApprovalTicket } from '@awaken/contract';
import type { AgUiInterrupt } from '../wire/ag-ui-event';

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

/**
 * One AG-UI interrupt per open ticket: id = ticket id, `reason: "tool_call"` with its call id, and
 * `metadata` `{toolName, action, arguments}` of that call. A sub-agent's question (a nested ticket,
 * on the call that delegated) also carries `subagentRunId` (the child run) and `metadata.nested`:
 * the inner tool, its arguments and the agent path (`{toolName, arguments, agentPath, runId,
 * ticketId}`). Its answer (`resume[]` on this run) is forwarded to the child.
 */
export function toInterrupt(ticket: OpenTicket): AgUiInterrupt {
  const schema = responseSchemaOf(ticket);
  const nested = ticket.nested;
  return {
    id: ticket.ticketId,
    reason: 'tool_call',
    message: ticket.message,
    toolCallId: ticket.toolCallId,
    ...(schema ? { responseSchema: schema } : {}),
    ...(ticket.expiresAt === undefined ? {} : { expiresAt: new Date(ticket.expiresAt).toISOString() }),
    ...(nested ? { subagentRunId: nested.runId } : {}),
    metadata: {
      toolName: ticket.toolName,
      action: ticket.action,
      arguments: ticket.arguments ?? null,
      ...(nested
        ? {
            nested: {
              toolName: nested.toolName,
              arguments: nested.arguments ?? null,
              agentPath: nested.agentPath,
              runId: nested.runId,
              ticketId: nested.ticketId,
            },
          }
        : {}),
    },
  };
}
