import {
  type JsonSchema,
  type OpenTicket,
  allowsEditing,
  indeterminateQuestionOf,
  questionKindOf,
} from '@awaken/contract';
import type { AgUiInterrupt } from '../wire/ag-ui-event';

/** The interrupt `reason` of an approval, a client value or any ticket but an indeterminate one. */
export const TOOL_CALL_INTERRUPT_REASON = 'tool_call';
/**
 * The interrupt `reason` of an `indeterminate` ticket: did a call that must never run twice happen
 * before its process died? Namespaced, as AG-UI asks of every reason beyond its core ones, so a
 * client that treats `tool_call` as an approval never offers yes/no for it.
 */
export const INDETERMINATE_INTERRUPT_REASON = 'awaken:indeterminate';

/**
 * The `responseSchema` an interrupt advertises: for an approval AG-UI's convention
 * `{approved: boolean, reason?: string, editedArgs?: object}` (`editedArgs` only where the ticket
 * allows editing); for an indeterminate ticket its own answer schema (`{outcome: 'retry'}`,
 * `{outcome: 'result', result?}`, `{outcome: 'fail', reason?}`); for any other ticket its own schema
 * (the payload is the answer itself).
 */
export function responseSchemaOf(ticket: OpenTicket): JsonSchema | undefined {
  switch (questionKindOf(ticket)) {
    case 'approval':
      return {
        type: 'object',
        properties: {
          approved: { type: 'boolean' },
          reason: { type: 'string' },
          ...(allowsEditing(ticket) ? { editedArgs: { type: 'object' } } : {}),
        },
        required: ['approved'],
      };
    case 'indeterminate':
      return indeterminateQuestionOf(ticket).responseSchema;
    default:
      return ticket.responseSchema;
  }
}

/**
 * One AG-UI interrupt per open ticket: id = ticket id, with its call id. `reason: "tool_call"`, or
 * `"awaken:indeterminate"` for an indeterminate ticket, whose metadata also names its `outcomes`.
 * `metadata` carries `{toolName, action, arguments}` of that call. A sub-agent's question (a nested
 * ticket, on the call that delegated) also carries `subagentRunId` (the child run) and
 * `metadata.nested`: the inner tool, its arguments and the agent path (`{toolName, arguments,
 * agentPath, runId, ticketId}`). Its answer (`resume[]` on this run) is forwarded to the child.
 */
export function toInterrupt(ticket: OpenTicket): AgUiInterrupt {
  const schema = responseSchemaOf(ticket);
  const indeterminate = questionKindOf(ticket) === 'indeterminate';
  const nested = ticket.nested;
  return {
    id: ticket.ticketId,
    reason: indeterminate ? INDETERMINATE_INTERRUPT_REASON : TOOL_CALL_INTERRUPT_REASON,
    message: ticket.message,
    toolCallId: ticket.toolCallId,
    ...(schema ? { responseSchema: schema } : {}),
    ...(ticket.expiresAt === undefined ? {} : { expiresAt: new Date(ticket.expiresAt).toISOString() }),
    ...(nested ? { subagentRunId: nested.runId } : {}),
    metadata: {
      toolName: ticket.toolName,
      action: ticket.action,
      arguments: ticket.arguments ?? null,
      ...(indeterminate ? { outcomes: indeterminateQuestionOf(ticket).outcomes } : {}),
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
