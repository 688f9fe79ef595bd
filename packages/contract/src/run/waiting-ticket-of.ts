import type { ToolCallState } from '../tool/tool-call-state';
import type { RunWaitingTicket } from './run-waiting-state';

/**
 * The open question a call asks, as a waiting run shows it to whoever must decide: undefined unless
 * the call is suspended on a ticket. The run record's waiting state and every protocol adapter list
 * the same tickets through this.
 */
export function waitingTicketOf(call: ToolCallState): RunWaitingTicket | undefined {
  if (call.status !== 'suspended' || !call.ticket) return undefined;
  const { suspension, pending, resumeMode, expiresAt } = call.ticket;
  return {
    ticketId: suspension.id,
    toolCallId: call.callId,
    toolName: call.toolName,
    action: suspension.action,
    message: suspension.message,
    arguments: pending.arguments,
    parameters: suspension.parameters,
    ...(suspension.responseSchema ? { responseSchema: suspension.responseSchema } : {}),
    resumeMode,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(suspension.requiresDistinctApprover ? { requiresDistinctApprover: true as const } : {}),
    ...(suspension.nested ? { nested: suspension.nested } : {}),
  };
}
